// The strict readers of the reference model's JSON inputs (io/calculon_json.h): every rule of
// calculon-model.md §1-§2 rejects a mutated copy of a valid case with an InputError naming the
// file and the JSON pointer; every reference case loads; units are converted once.
#include "calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/safe_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

using namespace gapstudio;

class tst_CalculonIo : public QObject
{
    Q_OBJECT

private slots:
    void rejectsBadInput_data();
    void rejectsBadInput();
    void loadsEveryReferenceCase_data();
    void loadsEveryReferenceCase();
    void convertsUnitsOnce();
    void acceptsZeroTier2Capacity();
    void formatsErrorsOnOneLine();
};

namespace {

const QString kBaseCase = QStringLiteral("18_gpt3-175B_4096_h100_fp8");

void row(const char *name, const char *target, const char *op, const char *pointer, const char *value,
         const char *expectedFile, const char *expectedPointer, const char *expectedMessage)
{
    QTest::newRow(name) << QString::fromUtf8(target) << QString::fromUtf8(op) << QString::fromUtf8(pointer)
                        << QString::fromUtf8(value) << QString::fromUtf8(expectedFile)
                        << QString::fromUtf8(expectedPointer) << QString::fromUtf8(expectedMessage);
}

void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

namespace {

/// Rows of rejectsBadInput: the model file: exactly 6 integer keys, each >= 1.
void modelRows()
{
    row("model unknown key", "model", "merge", "", R"({"hidden_size": 1})", "model", "/hidden_size", "unknown key");
    row("model missing key", "model", "remove", "/num_blocks", "", "model", "/", "missing key \"num_blocks\"");
    row("model string for int", "model", "set", "/hidden", R"("12288")", "model", "/hidden", "expected an integer, got \"12288\"");
    row("model 8.5 for int", "model", "set", "/attn_heads", "8.5", "model", "/attn_heads", "expected an integer, got 8.5");
    row("model 96.0 for int", "model", "set", "/num_blocks", "96.0", "model", "/num_blocks", "expected an integer, got 96.0");
    row("model bool for int", "model", "set", "/seq_size", "true", "model", "/seq_size", "expected an integer, got true");
    row("model zero size", "model", "set", "/attn_size", "0", "model", "/attn_size", "expected an integer >= 1, got 0");
    row("model negative size", "model", "set", "/feedforward", "-1", "model", "/feedforward", ">= 1, got -1");
    row("model integer too large", "model", "set", "/num_blocks", "1152921504606846976", "model", "/num_blocks", "too large");
    row("model not an object", "model", "raw", "", "[1, 2]", "model", "/", "expected an object, got an array");
}

/// Rows of rejectsBadInput: the execution file: its 23 keys, types, enums and the reference's assertions.
void executionRows()
{
    row("exe unknown key", "execution", "merge", "", R"({"tensor_parallel": 8})", "execution", "/tensor_parallel", "unknown key");
    row("exe missing key", "execution", "remove", "/training", "", "execution", "/", "missing key \"training\"");
    row("exe tp*pp*dp != num_procs", "execution", "merge", "", R"({"num_procs": 2048})", "execution", "/num_procs", "2048 != tensor_par * pipeline_par * data_par = 8 * 16 * 32");
    row("exe zero tensor_par", "execution", "merge", "", R"({"tensor_par": 0})", "execution", "/tensor_par", ">= 1, got 0");
    row("exe zero microbatch", "execution", "merge", "", R"({"microbatch_size": 0})", "execution", "/microbatch_size", ">= 1, got 0");
    row("exe zero interleaving", "execution", "merge", "", R"({"pipeline_interleaving": 0})", "execution", "/pipeline_interleaving", ">= 1, got 0");
    row("exe negative network", "execution", "merge", "", R"({"data_par_net": -1})", "execution", "/data_par_net", ">= 0, got -1");
    row("exe bad recompute enum", "execution", "merge", "", R"({"activation_recompute": "selective"})", "execution", "/activation_recompute", "expected one of \"none\", \"attn_only\", \"full\", got \"selective\"");
    row("exe bad attention enum", "execution", "merge", "", R"({"attention_type": "grouped"})", "execution", "/attention_type", "expected one of");
    row("exe bad comm enum", "execution", "merge", "", R"({"tensor_par_comm_type": "rs"})", "execution", "/tensor_par_comm_type", "expected one of");
    row("exe bad overlap enum", "execution", "merge", "", R"({"tensor_par_overlap": true})", "execution", "/tensor_par_overlap", "got true");
    row("exe unknown datatype", "execution", "merge", "", R"({"datatype": "fp8"})", "execution", "/datatype", "got \"fp8\"");
    row("exe string for bool", "execution", "merge", "", R"({"training": "true"})", "execution", "/training", "expected true or false, got \"true\"");
    row("exe int for bool", "execution", "merge", "", R"({"weight_offload": 0})", "execution", "/weight_offload", "expected true or false, got 0");
    row("exe batch % dp", "execution", "merge", "", R"({"batch_size": 2050})", "execution", "/batch_size", "not divisible by data_par = 32");
    row("exe local batch % mbs", "execution", "merge", "", R"({"microbatch_size": 3})", "execution", "/microbatch_size", "batch_size / data_par = 64");
    row("exe recompute without training", "execution", "merge", "", R"({"training": false})", "execution", "/activation_recompute", "requires training");
    row("exe interleaving with pp 1", "execution", "merge", "", R"({"pipeline_par": 1, "num_procs": 256})", "execution", "/pipeline_interleaving", "requires pipeline_par > 1");
    row("exe sharding with dp 1", "execution", "merge", "", R"({"data_par": 1, "num_procs": 128, "batch_size": 64, "data_par_overlap": false})", "execution", "/optimizer_sharding", "requires data_par > 1");
    row("exe dp overlap with dp 1", "execution", "merge", "", R"({"data_par": 1, "num_procs": 128, "batch_size": 64, "optimizer_sharding": false})", "execution", "/data_par_overlap", "requires data_par > 1");
    row("exe dp overlap in inference", "execution", "merge", "", R"({"training": false, "activation_recompute": "none"})", "execution", "/data_par_overlap", "requires training");
    row("exe optimizer offload in inference", "execution", "merge", "", R"({"training": false, "activation_recompute": "none", "data_par_overlap": false, "optimizer_offload": true})", "execution", "/optimizer_offload", "requires training");
    row("exe tp overlap with tp 1", "execution", "merge", "", R"({"tensor_par": 1, "num_procs": 512})", "execution", "/tensor_par_overlap", "requires tensor_par > 1");
    row("exe ag redo without rs_ag", "execution", "merge", "", R"({"tensor_par_comm_type": "ar"})", "execution", "/seq_par_ag_redo", "rs_ag");
    row("exe ag redo with full recompute", "execution", "merge", "", R"({"activation_recompute": "full"})", "execution", "/seq_par_ag_redo", "full");
}

/// Rows of rejectsBadInput: rules across files, reported on the execution key that must change.
void crossFileRows()
{
    row("tp does not divide heads", "model", "set", "/attn_heads", "36", "execution", "/tensor_par", "8 does not divide attn_heads = 36 of ");
    row("tp does not divide hidden", "model", "set", "/hidden", "12300", "execution", "/tensor_par", "8 does not divide hidden = 12300");
    row("tp does not divide feedforward", "model", "set", "/feedforward", "49155", "execution", "/tensor_par", "does not divide feedforward = 49155");
    row("tp does not divide mbs*seq (rs_ag)", "model", "set", "/seq_size", "2050", "execution", "/tensor_par", "microbatch_size * seq_size = 1 * 2050");
    row("datatype missing from system", "execution", "merge", "", R"({"datatype": "bfloat16"})", "execution", "/datatype", "bfloat16 has no entry in the matrix table");
    row("datatype missing from vector table", "system", "remove", "/vector/float8", "", "execution", "/datatype", "float8 has no entry in the vector table");
    row("network index out of range", "execution", "merge", "", R"({"pipeline_par_net": 2})", "execution", "/pipeline_par_net", "network 2 does not exist");
}

/// Rows of rejectsBadInput: the system file: its keys, engines and efficiency tables.
void systemRows()
{
    row("sys unknown key", "system", "merge", "", R"({"name": "h100"})", "system", "/name", "unknown key");
    row("sys key needing escape", "system", "merge", "", R"({"a/b~c": 1})", "system", "/a~1b~0c", "unknown key");
    row("sys missing key", "system", "remove", "/processing_mode", "", "system", "/", "missing key \"processing_mode\"");
    row("sys bad processing mode", "system", "set", "/processing_mode", R"("overlap")", "system", "/processing_mode", "expected one of \"no_overlap\", \"roofline\"");
    row("sys unknown datatype key", "system", "set", "/matrix/float2", R"({"tflops": 1, "gflops_efficiency": [[0, 1]]})", "system", "/matrix/float2", "unknown datatype");
    row("sys engine unknown key", "system", "set", "/matrix/float8/peak", "1", "system", "/matrix/float8/peak", "unknown key");
    row("sys negative tflops", "system", "set", "/vector/float8/tflops", "-1", "system",
        "/vector/float8/tflops", "[0, 1e+09]");
    row("sys unsorted efficiency", "system", "set", "/matrix/float8/gflops_efficiency", "[[16, 0.9], [128, 0.95], [1, 0.6], [0, 0.1]]", "system", "/matrix/float8/gflops_efficiency/1/0", "must decrease");
    row("sys efficiency without 0 row", "system", "set", "/matrix/float16/gflops_efficiency", "[[128, 0.95], [1, 0.6]]", "system", "/matrix/float16/gflops_efficiency/1/0", "last threshold must be 0");
    row("sys efficiency above 1", "system", "set", "/mem1/MB_efficiency/0/1", "1.5", "system",
        "/mem1/MB_efficiency/0/1", "[1e-06, 1]");
    row("sys efficiency 0", "system", "set", "/vector/float16/gflops_efficiency/2/1", "0", "system",
        "/vector/float16/gflops_efficiency/2/1", "[1e-06, 1]");
    row("sys empty efficiency table", "system", "set", "/mem2/MB_efficiency", "[]", "system", "/mem2/MB_efficiency", "non-empty");
    row("sys efficiency row not a pair", "system", "set", "/mem1/MB_efficiency/0", "[100]", "system", "/mem1/MB_efficiency/0", "array of 2 elements");
    row("sys negative threshold", "system", "set", "/mem1/MB_efficiency/3/0", "-1", "system",
        "/mem1/MB_efficiency/3/0", "[0, 1e+24]");
    row("sys zero tier-1 capacity", "system", "set", "/mem1/GiB", "0", "system", "/mem1/GiB", "(0, 1e+15]");
    row("sys string bandwidth", "system", "set", "/mem2/GBps", R"("450")", "system", "/mem2/GBps", "expected a number");
    row("sys networks not a list", "system", "set", "/networks", "{}", "system", "/networks", "expected an array, got an object");
}

/// Rows of rejectsBadInput: the system's networks and their collective ops.
void networkRows()
{
    row("net unknown key", "system", "set", "/networks/0/name", R"("nvlink")", "system", "/networks/0/name", "unknown key");
    row("net missing key", "system", "remove", "/networks/1/latency", "", "system", "/networks/1", "missing key \"latency\"");
    row("net zero size", "system", "set", "/networks/0/size", "0", "system", "/networks/0/size", ">= 1, got 0");
    row("net float size", "system", "set", "/networks/0/size", "8.0", "system", "/networks/0/size", "expected an integer");
    row("net zero bandwidth", "system", "set", "/networks/1/bandwidth", "0", "system",
        "/networks/1/bandwidth", "(0, 1e+09]");
    row("net efficiency above 1", "system", "set", "/networks/0/efficiency", "1.2", "system",
        "/networks/0/efficiency", "[1e-06, 1]");
    row("net negative latency", "system", "set", "/networks/1/latency", "-1e-06", "system",
        "/networks/1/latency", "[0, 1]");
    row("net processor usage 1", "system", "set", "/networks/0/processor_usage", "1", "system", "/networks/0/processor_usage", "[0, 1)");
    row("net must_be_filled string", "system", "set", "/networks/0/must_be_filled", R"("yes")", "system", "/networks/0/must_be_filled", "expected true or false");
    row("net p2p offset not null", "system", "set", "/networks/1/ops/p2p/1", "0", "system", "/networks/1/ops/p2p/1", "expected null, got 0");
    row("net collective offset null", "system", "set", "/networks/0/ops/all_reduce/1", "null", "system", "/networks/0/ops/all_reduce/1", "expected a number, got null");
    row("net op not a pair", "system", "set", "/networks/0/ops/all_gather", "[1]", "system", "/networks/0/ops/all_gather", "expected [scalar, offset]");
    row("p2p op with 4 values", "system", "set", "/networks/0/ops/p2p", "[1, null, 0.5, 1]", "system", "/networks/0/ops/p2p", "expected [scalar, null] or [scalar, null, efficiency]");
    row("all_to_all with an offset", "system", "set", "/networks/0/ops/all_to_all", "[1, 0]", "system", "/networks/0/ops/all_to_all/1", "null");
    row("all_to_all efficiency out of range", "system", "set", "/networks/0/ops/all_to_all", "[1, null, 1.5]",
        "system", "/networks/0/ops/all_to_all/2", "[1e-06, 1]");
    row("net missing op", "system", "remove", "/networks/0/ops/all_gather", "", "system", "/networks/0/ops", "missing key \"all_gather\"");
    row("net unknown op", "system", "set", "/networks/0/ops/broadcast", "[1, 0]", "system", "/networks/0/ops/broadcast", "unknown key");
}

/// Rows of rejectsBadInput: numbers the model cannot compute with, rejected where they are read (limits.h).
void limitRows()
{
    // Numbers the model cannot compute with (limits.h) once gave null or negative
    // statistics with exit 0; each is now rejected where it is read, with its range.
    row("sys zero HBM bandwidth", "system", "set", "/mem1/GBps", "0", "system", "/mem1/GBps",
        "(0, 1e+09], got 0");
    row("sys negative-zero HBM bandwidth", "system", "set", "/mem1/GBps", "-0.0", "system", "/mem1/GBps",
        "(0, 1e+09]");
    row("sys huge tflops", "system", "set", "/matrix/float8/tflops", "1e308", "system",
        "/matrix/float8/tflops", "[0, 1e+09]");
    row("net huge latency", "system", "set", "/networks/1/latency", "1e308", "system", "/networks/1/latency",
        "[0, 1]");
    row("sys tiny efficiency", "system", "set", "/matrix/float8/gflops_efficiency/0/1", "1e-300", "system",
        "/matrix/float8/gflops_efficiency/0/1", "[1e-06, 1]");
    row("net negative collective offset", "system", "set", "/networks/1/ops/all_reduce/1", "-1e6", "system",
        "/networks/1/ops/all_reduce/1", "[-1, 1000]");
    row("net huge collective scalar", "system", "set", "/networks/0/ops/reduce_scatter/0", "1e308", "system",
        "/networks/0/ops/reduce_scatter/0", "(0, 1000]");
    // Sizes whose products overflow 64-bit counts (seq_size 1e9 gave a negative step time).
    row("model seq_size overflows", "model", "set", "/seq_size", "1000000000", "model", "/seq_size",
        "seq_size 1e+09 is too large");
    row("model hidden overflows", "model", "set", "/hidden", "1099511627776", "model", "/hidden",
        "is too large");
    row("blocks times microbatches overflows", "model", "set", "/num_blocks", "4503599627370496", "model",
        "/num_blocks", "num_blocks 4.5036e+15 is too large");
}

/// Rows of rejectsBadInput: the files themselves: syntax, duplicates, missing, special and oversized files,
/// nesting.
void fileRows()
{
    row("bad JSON syntax", "execution", "raw", "", R"({"num_procs": 4096,,})", "execution", "/", "invalid JSON");
    row("empty file", "model", "raw", "", "", "model", "/", "invalid JSON");
    row("duplicate key", "model", "raw", "", R"({"hidden": 12288, "feedforward": 49152, "seq_size": 2048, "attn_heads": 96, "attn_size": 128, "num_blocks": 96, "hidden": 1})", "model", "/hidden", "duplicate key");
    row("missing file", "system", "missing", "", "", "system", "/", "cannot open");
    // Only regular files of bounded size and nesting are read (a FIFO blocked forever,
    // /dev/zero grew to 6 GB, a 100,000-deep array overflowed the stack where it was printed).
    row("FIFO", "system", "fifo", "", "", "system", "/", "not a regular file");
    row("device", "model", "device", "", "", "model", "/", "not a regular file");
    row("larger than the limit", "execution", "huge", "", "", "execution", "/", "larger than the limit");
    std::string deepest; // the pointer of the first array too deep: 64 times "/0"
    for (std::size_t i = 0; i < io::kMaxJsonDepth; ++i)
        deepest += "/0";
    row("nested too deep", "model", "raw", "", std::string(100000, '[').c_str(), "model", deepest.c_str(),
        "nested deeper than 64 levels");
}

} // namespace

void tst_CalculonIo::rejectsBadInput_data()
{
    QTest::addColumn<QString>("target");  // model | execution | system
    QTest::addColumn<QString>("op");      // merge (RFC 7386 patch) | set | remove | raw (file text) | missing
    QTest::addColumn<QString>("pointer"); // for set / remove
    QTest::addColumn<QString>("value");   // JSON text (merge, set) or the raw file text
    QTest::addColumn<QString>("expectedFile");
    QTest::addColumn<QString>("expectedPointer");
    QTest::addColumn<QString>("expectedMessage"); // a substring of the message

    modelRows();
    executionRows();
    crossFileRows();
    systemRows();
    networkRows();
    limitRows();
    fileRows();
}

void tst_CalculonIo::rejectsBadInput()
{
    QFETCH(QString, target);
    QFETCH(QString, op);
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, expectedFile);
    QFETCH(QString, expectedPointer);
    QFETCH(QString, expectedMessage);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto path = [&dir](const QString &part) { return dir.filePath(part + QStringLiteral(".json")).toStdString(); };
    for (const char *part : {"model", "execution", "system"}) {
        nlohmann::json json = test::readJson(test::caseFile(kBaseCase, (std::string(part) + ".json").c_str()));
        const std::string file = path(QString::fromLatin1(part));
        if (target != QLatin1String(part)) {
            writeFile(file, json.dump(2));
            continue;
        }
        if (op == QLatin1String("missing"))
            continue;
        if (op == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(file.c_str(), 0600), 0); // no writer: opening it for reading would wait
            continue;
        }
        if (op == QLatin1String("device")) {
            QCOMPARE(::symlink("/dev/zero", file.c_str()), 0); // endless zeros
            continue;
        }
        if (op == QLatin1String("huge")) { // a sparse file one byte over the limit
            writeFile(file, json.dump(2));
            std::filesystem::resize_file(file, io::kMaxInputBytes + 1);
            continue;
        }
        if (op == QLatin1String("raw")) {
            writeFile(file, value.toStdString());
            continue;
        }
        if (op == QLatin1String("merge")) {
            json.merge_patch(nlohmann::json::parse(value.toStdString()));
        } else if (op == QLatin1String("set")) {
            json[nlohmann::json::json_pointer(pointer.toStdString())] = nlohmann::json::parse(value.toStdString());
        } else {
            const nlohmann::json::json_pointer where(pointer.toStdString());
            json.at(where.parent_pointer()).erase(where.back());
        }
        writeFile(file, json.dump(2));
    }

    try {
        const io::CalculonInputs in = io::loadCalculonInputs(path(QStringLiteral("model")), path(QStringLiteral("execution")),
                                                             path(QStringLiteral("system")));
        Q_UNUSED(in);
    } catch (const io::InputError &error) {
        const QString what = QString::fromUtf8(error.what());
        QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString(path(expectedFile)));
        QCOMPARE(QString::fromStdString(error.jsonPointer()), expectedPointer);
        QVERIFY2(what.contains(expectedMessage), qPrintable(what));
        QVERIFY2(what.startsWith(QString::fromStdString(error.file() + ": " + error.jsonPointer() + ": ")), qPrintable(what));
        QVERIFY2(!what.contains(QLatin1Char('\n')), qPrintable(what));
        return;
    } catch (const std::exception &error) {
        QFAIL(qPrintable(QStringLiteral("not an InputError: ") + QString::fromUtf8(error.what())));
    }
    QFAIL("accepted");
}

void tst_CalculonIo::loadsEveryReferenceCase_data()
{
    QTest::addColumn<QString>("caseName");
    for (const QString &name : test::caseNames())
        QTest::newRow(qPrintable(name)) << name;
}

void tst_CalculonIo::loadsEveryReferenceCase()
{
    QFETCH(QString, caseName);
    try {
        const io::CalculonInputs in = io::loadCalculonInputs(test::caseFile(caseName, "model.json"),
                                                             test::caseFile(caseName, "execution.json"),
                                                             test::caseFile(caseName, "system.json"));
        const nlohmann::json exe = test::readJson(test::caseFile(caseName, "execution.json"));
        QCOMPARE(in.execution.numProcs, exe["num_procs"].get<std::int64_t>());
        QCOMPARE(in.execution.training, exe["training"].get<bool>());
        QCOMPARE(std::string(model::datatypeName(in.execution.datatype)), exe["datatype"].get<std::string>());
    } catch (const io::InputError &error) {
        QFAIL(error.what());
    }
}

void tst_CalculonIo::convertsUnitsOnce()
{
    // Case 18 uses the shipped h100_80g_nvl8 system (calculon-model.md §1.3).
    const io::CalculonInputs in = io::loadCalculonInputs(test::caseFile(kBaseCase, "model.json"),
                                                         test::caseFile(kBaseCase, "execution.json"),
                                                         test::caseFile(kBaseCase, "system.json"));
    const model::System &sys = in.system;
    const auto fp8 = static_cast<std::size_t>(model::Datatype::Float8);
    QVERIFY(sys.matrix[fp8].has_value());
    QVERIFY(!sys.matrix[static_cast<std::size_t>(model::Datatype::Bfloat16)].has_value());
    QCOMPARE(sys.matrix[fp8]->peak_flops, 2000e12);
    QCOMPARE(sys.vector[fp8]->peak_flops, 120e12);
    QCOMPARE(sys.matrix[fp8]->efficiency.rows.size(), std::size_t{4});
    QCOMPARE(sys.matrix[fp8]->efficiency.rows.front().first, 128e9); // GFLOP -> flops
    QCOMPARE(sys.matrix[fp8]->efficiency.rows.front().second, 0.95);
    QCOMPARE(sys.matrix[fp8]->efficiency.rows.back().first, 0.0);
    QCOMPARE(sys.mem1.capacity_B, 80.0 * 1024 * 1024 * 1024);
    QCOMPARE(sys.mem1.bandwidth_Bps, 3072e9);
    QCOMPARE(sys.mem1.efficiency.rows.front().first, 100e6); // MB -> bytes
    QCOMPARE(sys.mem2.capacity_B, 512.0 * 1024 * 1024 * 1024);
    QCOMPARE(sys.processingMode, model::ProcessingMode::NoOverlap);
    QCOMPARE(sys.networks.size(), std::size_t{2});
    QCOMPARE(sys.networks[0].bandwidth_Bps, 450e9);
    QCOMPARE(sys.networks[0].efficiency, 0.65);
    QCOMPARE(sys.networks[0].size, std::int64_t{8});
    QCOMPARE(sys.networks[0].latency_s, 1e-5);
    QCOMPARE(sys.networks[0].allReduce.scalar, 1.0);
    QCOMPARE(sys.networks[0].allReduce.offset, 1.0);
    QCOMPARE(sys.networks[0].p2p.offset, 0.0);
    QVERIFY(sys.networks[0].mustBeFilled);
    QVERIFY(!sys.networks[1].mustBeFilled);
    QCOMPARE(sys.networks[1].processorUsage, 0.02);

    const model::Execution &exe = in.execution;
    QCOMPARE(exe.tensorPar, std::int64_t{8});
    QCOMPARE(exe.pipelinePar, std::int64_t{16});
    QCOMPARE(exe.dataPar, std::int64_t{32});
    QCOMPARE(exe.pipelineParNet, std::int64_t{1});
    QCOMPARE(exe.datatype, model::Datatype::Float8);
    QCOMPARE(exe.activationRecompute, model::Recompute::AttnOnly);
    QCOMPARE(exe.tensorParCommType, model::TpCommType::RsAg);
    QCOMPARE(exe.tensorParOverlap, model::TpOverlap::Ring);
    QVERIFY(exe.fusedActivation && exe.optimizerSharding && exe.seqParAgRedo && exe.dataParOverlap);
    QCOMPARE(in.application.attnHeads, std::int64_t{96});
    QCOMPARE(in.application.numBlocks, std::int64_t{96});
}

void tst_CalculonIo::acceptsZeroTier2Capacity()
{
    // systems_derived/a100_80g_nomem2.json: mem2.GiB = 0 disables offloading (§1.3).
    const std::string file = TEST_DATA_DIR "/calculon/systems_derived/a100_80g_nomem2.json";
    const model::System sys = io::parseSystem(test::readJson(file), file);
    QCOMPARE(sys.mem2.capacity_B, 0.0);
    QCOMPARE(sys.mem1.capacity_B, 80.0 * 1024 * 1024 * 1024);
}

void tst_CalculonIo::formatsErrorsOnOneLine()
{
    const io::InputError error("system.json", "/networks/1/ops/p2p/1", "expected null,\ngot 0");
    QCOMPARE(QString::fromUtf8(error.what()), QStringLiteral("system.json: /networks/1/ops/p2p/1: expected null, got 0"));
    QCOMPARE(error.file(), std::string("system.json"));
    QCOMPARE(error.jsonPointer(), std::string("/networks/1/ops/p2p/1"));
}

QTEST_GUILESS_MAIN(tst_CalculonIo)
#include "tst_calculon_io.moc"
