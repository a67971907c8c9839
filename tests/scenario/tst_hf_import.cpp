// Hugging Face import on three published config shapes: dense with grouped-query
// attention, Mixtral-style MoE and DeepSeek-style MoE (fixtures in tests/data/hf/).
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/hf_import.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

using namespace gapstudio;

namespace {

scenario::HfImport importFixture(const char *name)
{
    const std::string path = std::string(TEST_DATA_DIR "/hf/") + name + "/config.json";
    return scenario::importHuggingFaceConfig(io::readJsonFile(path), path, name, name);
}

bool mentions(const scenario::HfImport &import, const char *text)
{
    return std::any_of(import.approximations.begin(), import.approximations.end(),
                       [&](const std::string &note) { return note.find(text) != std::string::npos; });
}

} // namespace

class tst_HfImport : public QObject {
    Q_OBJECT

private slots:
    void denseGqa()
    {
        const scenario::HfImport in = importFixture("llama3-70b");
        const scenario::Llm &m = in.llm;
        QCOMPARE(m.hidden, std::int64_t { 8192 });
        QCOMPARE(m.feedforward, std::int64_t { 28672 });
        QCOMPARE(m.numBlocks, std::int64_t { 80 });
        QCOMPARE(m.attnHeads, std::int64_t { 64 });
        QCOMPARE(m.kvHeads, std::int64_t { 8 });
        QCOMPARE(m.headSize, std::int64_t { 128 }); // hidden / heads (no head_dim)
        QCOMPARE(m.seqSize, std::int64_t { 8192 });
        QCOMPARE(m.vocabSize, std::int64_t { 128256 });
        QVERIFY(!m.isMoe());
        QCOMPARE(m.attention(), scenario::AttentionKind::GroupedQuery);
        QCOMPARE(m.activation, model::ActivationFunction::Silu);
        QVERIFY(mentions(in, "gate matrix"));
    }

    void mixtral()
    {
        const scenario::HfImport in = importFixture("mixtral-8x7b");
        const scenario::Llm &m = in.llm;
        QCOMPARE(m.numExperts, std::int64_t { 8 });
        QCOMPARE(m.topK, std::int64_t { 2 });
        QCOMPARE(m.feedforward, std::int64_t { 14336 }); // no moe_intermediate_size: intermediate_size
        QCOMPARE(m.kvHeads, std::int64_t { 8 });
        QCOMPARE(m.routerGroups, std::int64_t { 0 }); // plain top-k routing
        QCOMPARE(m.seqSize, std::int64_t { 32768 });
        QVERIFY(!mentions(in, "sliding-window")); // sliding_window is null
        // The config's "attention_dropout": 0.0; it states no hidden dropout, which stays counted.
        QCOMPARE(m.attentionDropout, 0.0);
        QVERIFY(m.hiddenDropout < 0);
        QVERIFY(mentions(in, "no hidden_dropout"));
    }

    void deepseek()
    {
        const scenario::HfImport in = importFixture("deepseek-v3");
        const scenario::Llm &m = in.llm;
        QCOMPARE(m.hidden, std::int64_t { 7168 });
        QCOMPARE(m.numExperts, std::int64_t { 256 });
        QCOMPARE(m.topK, std::int64_t { 8 });
        QCOMPARE(m.feedforward, std::int64_t { 2048 }); // moe_intermediate_size
        QCOMPARE(m.headSize, std::int64_t { 128 });     // v_head_dim
        QCOMPARE(m.kvHeads, std::int64_t { 128 });
        QCOMPARE(m.numBlocks, std::int64_t { 61 });
        QCOMPARE(m.routerGroups, std::int64_t { 8 }); // n_group with topk_method noaux_tc
        QVERIFY(mentions(in, "latent attention"));
        QVERIFY(mentions(in, "shared expert"));
        QVERIFY(mentions(in, "first 3 layers are dense"));
        QVERIFY(mentions(in, "multi-token-prediction"));
    }

    void importedPresetRoundTrips()
    {
        const scenario::HfImport in = importFixture("deepseek-v3");
        const std::string text = io::toText(io::toJson(in.llm));
        const scenario::Llm again = io::parseLlm(nlohmann::json::parse(text), "memory");
        QVERIFY(again == in.llm);
    }

    void badConfig()
    {
        nlohmann::json config = nlohmann::json::parse(R"({"hidden_size": 4096, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 5, "vocab_size": 32000,
            "max_position_embeddings": 4096, "intermediate_size": 11008})");
        try {
            (void)scenario::importHuggingFaceConfig(config, "config.json", "x", "x");
            QFAIL("no error");
        } catch (const io::InputError &error) {
            QCOMPARE(QString::fromStdString(error.jsonPointer()), QStringLiteral("/num_key_value_heads"));
        }
        // A dropout is a probability: 1 drops everything and is refused with its JSON path.
        config["num_key_value_heads"] = 8;
        config["attention_dropout"] = 1.0;
        try {
            (void)scenario::importHuggingFaceConfig(config, "config.json", "x", "x");
            QFAIL("no error");
        } catch (const io::InputError &error) {
            QCOMPARE(QString::fromStdString(error.jsonPointer()), QStringLiteral("/attention_dropout"));
        }
    }
};

QTEST_GUILESS_MAIN(tst_HfImport)
#include "tst_hf_import.moc"
