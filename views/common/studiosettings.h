#pragma once
/**
 * @file studiosettings.h
 * Typed QSettings keys declared where they are used (Tiled's SessionOption, style B7). The model
 * never sees settings; scenarios are documents, never settings.
 */

#include <QSettings>
#include <QString>
#include <QVariant>

namespace gapstudio::views {

template <typename T> class AppSetting {
public:
    AppSetting(const char *key, T defaultValue)
        : mKey(QString::fromLatin1(key))
        , mDefault(std::move(defaultValue))
    {
    }
    [[nodiscard]] T get() const
    {
        return QSettings().value(mKey, QVariant::fromValue(mDefault)).template value<T>();
    }
    void set(const T &value) const { QSettings().setValue(mKey, QVariant::fromValue(value)); }

private:
    QString mKey;
    T mDefault;
};

} // namespace gapstudio::views
