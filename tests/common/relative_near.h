#pragma once
// A value equal to an expected one within a relative tolerance (exact by default, to rounding):
// for numbers derived by hand beside the code's.

#include <QString>
#include <QTest>

#include <cmath>

namespace gapstudio::test {

inline void relativeNear(double actual, double expected, double tolerance = 1e-12)
{
    QVERIFY2(
        std::fabs(actual - expected) <= tolerance * std::fabs(expected),
        qPrintable(QStringLiteral("%1 vs expected %2").arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)));
}

} // namespace gapstudio::test
