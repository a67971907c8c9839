// Model outputs against textbook formulas written out from calculon-model.md (§3.1 layer list,
// §3.2 per-layer weights, §7 memory accounting, §8.1 efficiency definitions), one row per
// textbook case. Expected values are computed here from the shapes in each row, never read
// from the reference output. (Network op-time formulas of §4.1 are unit-tested by the model's
// own tests, not here.)
#include "calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/evaluate.h"

#include <QTest>

using namespace gapstudio;

class tst_Formulas : public QObject
{
    Q_OBJECT

private slots:
    void blockWeights_data();
    void blockWeights();
    void identities_data();
    void identities();
};

namespace {

model::Evaluation evaluateCase(const QString &caseName, io::CalculonInputs *inputs = nullptr)
{
    const io::CalculonInputs in = io::loadCalculonInputs(test::caseFile(caseName, "model.json"),
                                                         test::caseFile(caseName, "execution.json"),
                                                         test::caseFile(caseName, "system.json"));
    if (inputs)
        *inputs = in;
    return model::evaluate(in.application, in.execution, in.system);
}

bool close(double actual, double expected, double relative = 1e-12)
{
    return std::fabs(actual - expected) <= relative * std::max(std::fabs(expected), 1.0);
}

#define COMPARE_CLOSE(actual, expected)                                                                      \
    QVERIFY2(close(actual, expected), qPrintable(QStringLiteral(#actual ": got %1, expected %2")            \
                                                     .arg(actual, 0, 'g', 17)                                \
                                                     .arg(expected, 0, 'g', 17)))

} // namespace

void tst_Formulas::blockWeights_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<double>("h");
    QTest::addColumn<double>("f");
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("d");
    QTest::addColumn<double>("L");
    QTest::addColumn<double>("tp");
    QTest::addColumn<double>("pp");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("shard"); // dp with optimizer sharding, else 1
    QTest::addColumn<bool>("multiQuery");

    QTest::newRow("megatron-22B tp8 fp16") << "01_val_megatron-22B_full" << 6144. << 24576. << 64. << 96. << 48. << 8. << 1. << 2. << 1. << false;
    QTest::newRow("gpt3-175B tp8 fp8 overlapped GEMMs, ZeRO-1 over dp32") << "18_gpt3-175B_4096_h100_fp8" << 12288. << 49152. << 96. << 128. << 96. << 8. << 16. << 1. << 32. << false;
    QTest::newRow("gpt3-175B tp16 fp8 ZeRO-1 over dp32") << "29_gpt3-175B_4096_fullflat_tp16" << 12288. << 49152. << 96. << 128. << 96. << 16. << 8. << 1. << 32. << false;
    QTest::newRow("gpt3-13B tp4, a*d != h") << "12_gpt3-13B_tp4pp2dp4_a100_pipe" << 5140. << 20560. << 40. << 128. << 40. << 4. << 2. << 2. << 1. << false;
    QTest::newRow("megatron-126M tp1, ZeRO-1 over dp8") << "10_m126M_dp8_a100" << 768. << 3072. << 16. << 48. << 12. << 1. << 1. << 2. << 8. << false;
    QTest::newRow("lamda multi-query tp8, ZeRO-1 over dp16") << "17_lamda_1024_h100_multiquery" << 8192. << 65536. << 128. << 128. << 64. << 8. << 8. << 2. << 16. << true;
}

void tst_Formulas::blockWeights()
{
    QFETCH(QString, caseName);
    QFETCH(double, h);
    QFETCH(double, f);
    QFETCH(double, a);
    QFETCH(double, d);
    QFETCH(double, L);
    QFETCH(double, tp);
    QFETCH(double, pp);
    QFETCH(double, bytes);
    QFETCH(double, shard);
    QFETCH(bool, multiQuery);

    // Weights of one block on one processor (§3.1/§3.2, no biases in the reference's layers):
    // MLP h->f and f->h split by tp (2hf/tp); Q, K, V and the output projection h <-> a*d split
    // by tp (4had/tp), except multi-query K and V, h->d each and not split (2hd); two
    // LayerNorms with 2h weights each, replicated (4h). For f = 4h, a*d = h: 12h^2/tp + 4h.
    const double attention = multiQuery ? 2 * h * a * d / tp + 2 * h * d : 4 * h * a * d / tp;
    const double weights = 2 * h * f / tp + attention + 4 * h;

    const model::Evaluation evaluation = evaluateCase(caseName);
    QVERIFY2(evaluation.ok, evaluation.diagnostics.empty() ? "failed" : evaluation.diagnostics.front().message.c_str());
    const model::Stats &s = evaluation.stats;
    COMPARE_CLOSE(s.block_weight_space, bytes * weights);
    // fp32 gradient accumulation, unsharded (§3.2).
    COMPARE_CLOSE(s.block_weight_grad_space_no_sharding, 4 * weights);
    COMPARE_CLOSE(s.block_weight_grad_space, bytes * weights / shard);
    // Adam m and v (2 x fp32) + fp32 master weights = 12 bytes per parameter, sharded (§3.2).
    COMPARE_CLOSE(s.block_optimizer_space, 12 * weights / shard);
    // Even pipeline: L/pp blocks per processor (§7).
    COMPARE_CLOSE(s.weight_space, (L / pp) * bytes * weights);
}

void tst_Formulas::identities_data()
{
    QTest::addColumn<QString>("caseName");
    for (const QString &name : test::caseNames()) {
        if (test::readAll(QString::fromStdString(test::caseFile(name, "rc.txt"))).trimmed() == "0")
            QTest::newRow(qPrintable(name)) << name;
    }
}

void tst_Formulas::identities()
{
    QFETCH(QString, caseName);
    io::CalculonInputs in;
    const model::Evaluation evaluation = evaluateCase(caseName, &in);
    QVERIFY2(evaluation.ok, evaluation.diagnostics.empty() ? "failed" : evaluation.diagnostics.front().message.c_str());
    const model::Stats &s = evaluation.stats;

    // §8.1: sample_rate = batch / total; total_efficiency = ideal / total
    // = (ideal / (fw + bw + optim)) * ((fw + bw + optim) / total).
    COMPARE_CLOSE(s.sample_rate, static_cast<double>(in.execution.batchSize) / s.total_time);
    const double busy = s.fw_time + s.bw_time + s.optim_step_time;
    COMPARE_CLOSE(s.system_efficiency, busy / s.total_time);
    COMPARE_CLOSE(s.total_efficiency, s.compute_efficiency * s.system_efficiency);

    // §7: without offload, tier 1 holds everything and tier 2 nothing.
    const model::Execution &exe = in.execution;
    if (!exe.weightOffload && !exe.activationsOffload && !exe.optimizerOffload) {
        COMPARE_CLOSE(s.proc_mem_tier1_cap_req, s.weight_space + s.act_space + s.act_checkpoint_size
                                                    + s.weight_grad_space + s.optimizer_space + s.act_grad_space);
        COMPARE_CLOSE(s.proc_mem_tier2_cap_req, 0.0);
    }
}

QTEST_GUILESS_MAIN(tst_Formulas)
#include "tst_formulas.moc"
