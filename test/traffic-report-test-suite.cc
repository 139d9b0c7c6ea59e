/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-volume-oracle.h"
#include "workload-test-util.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/gpu-spec.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/object.h"
#include "ns3/parallel-layout.h"
#include "ns3/scenario.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-report.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of TrafficReport. Every expected number is derived by hand in a comment
 * from the formula cited in traffic-report.h and the schedules of
 * collective-volume.h, never produced by the code under test. Notation: b
 * micro-batch, s sequence length, h hidden size, A activation bytes, m
 * micro-batches, l layers per stage, S a message size, n a group size.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * Build a report, aborting on a problem.
 * @param report the report.
 * @param model the model.
 * @param config the configuration.
 * @param layout the layout.
 * @param algorithms the algorithms.
 */
void
BuildOrAbort(TrafficReport& report,
             Ptr<TransformerSpec> model,
             Ptr<TrainingConfig> config,
             Ptr<ParallelLayout> layout,
             const CollectiveChoices& algorithms = CollectiveChoices())
{
    std::string problem = report.Build(
        {model, config, layout, layout->GetWorldSize(), CreateObject<GpuSpec>(), algorithms});
    NS_ABORT_MSG_IF(!problem.empty(), problem);
}

/**
 * @param report a built report.
 * @param rank a rank.
 * @param strategy a strategy.
 * @param kind a collective.
 * @param phase a phase.
 * @return the entries of the rank matching all three.
 */
std::vector<TrafficEntry>
Find(const TrafficReport& report,
     uint32_t rank,
     TrafficStrategy strategy,
     CollectiveKind kind,
     TrafficPhase phase)
{
    std::vector<TrafficEntry> found;
    for (const TrafficEntry& entry : report.GetRankEntries(rank))
    {
        if (entry.strategy == strategy && entry.kind == kind && entry.phase == phase)
        {
            found.push_back(entry);
        }
    }
    return found;
}

/**
 * Which entry of a rank a row checks: the index-th, in the report's order, of the rank's entries
 * of a strategy, collective and phase, of which there are `matching`. A key that gives only the
 * rank and strategy means that strategy's backward all-reduce, one of them.
 */
struct EntryKey
{
    uint32_t rank{0};                                //!< the rank.
    TrafficStrategy strategy{TrafficStrategy::DP};   //!< the entry's strategy.
    CollectiveKind kind{CollectiveKind::ALL_REDUCE}; //!< the entry's collective.
    TrafficPhase phase{TrafficPhase::BACKWARD};      //!< the entry's phase.
    std::size_t matching{1};                         //!< entries matching the three.
    std::size_t index{0};                            //!< the one checked.
};

/**
 * What a test expects of one entry of a rank, a row of a table written in this order: name, key,
 * then the entry's message bytes, count, members, place in the group, variant, and intra-server
 * sent, inter-server sent, intra-server received and inter-server received bytes. Only the fields
 * given (not {}) are checked, exactly.
 */
struct ExpectedEntry
{
    std::string what{};                             //!< the row's name, in its checks' messages.
    EntryKey key{};                                 //!< which entry.
    std::optional<uint64_t> messageBytes{};         //!< S.
    std::optional<uint64_t> count{};                //!< times per iteration.
    std::optional<std::vector<uint32_t>> members{}; //!< the group, in order.
    std::optional<uint32_t> groupRank{};            //!< the rank's place in the group.
    std::optional<std::string> variant{};           //!< the sharding.
    std::optional<uint64_t> intraSent{};            //!< bytes sent in the server.
    std::optional<uint64_t> interSent{};            //!< bytes sent to other servers.
    std::optional<uint64_t> intraReceived{};        //!< bytes received in the server.
    std::optional<uint64_t> interReceived{};        //!< bytes received from other servers.
};

/// Which bytes of a TrafficBytes a row of totals checks.
enum class Bytes
{
    SENT,           //!< Sent(): intra- and inter-server.
    INTRA_SENT,     //!< intraSent.
    INTER_SENT,     //!< interSent.
    INTRA_RECEIVED, //!< intraReceived.
    INTER_RECEIVED, //!< interReceived.
};

/**
 * What a test expects of a rank's totals, a row of a table: name, rank, strategy ({} for the
 * sum over all strategies), which bytes and their number.
 */
struct ExpectedTotal
{
    std::string what{};                        //!< the row's name, in its check's message.
    uint32_t rank{0};                          //!< the rank.
    std::optional<TrafficStrategy> strategy{}; //!< the strategy; {}: all.
    Bytes bytes{Bytes::SENT};                  //!< which bytes.
    uint64_t value{0};                         //!< their number.
};

/**
 * @param bytes byte counts.
 * @param which which of them.
 * @return that count.
 */
uint64_t
Pick(const TrafficBytes& bytes, Bytes which)
{
    switch (which)
    {
    case Bytes::INTRA_SENT:
        return bytes.intraSent;
    case Bytes::INTER_SENT:
        return bytes.interSent;
    case Bytes::INTRA_RECEIVED:
        return bytes.intraReceived;
    case Bytes::INTER_RECEIVED:
        return bytes.interReceived;
    default:
        return bytes.Sent();
    }
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A test case of TrafficReport: a model, configuration and layout kept to build a report from
 * (Start, then Rebuild after a change), and checks of that report's entries and totals against
 * tables of expected values, each row's name in the messages of its checks.
 */
class TrafficReportTestCase : public TestCase
{
  public:
    /**
     * Create the test case.
     * @param name its description.
     */
    explicit TrafficReportTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Make a model and build a report of it with a configuration and a layout, kept for Rebuild.
     * @param preset the model's preset.
     * @param config the configuration.
     * @param layout the layout.
     */
    void Start(const std::string& preset, Ptr<TrainingConfig> config, Ptr<ParallelLayout> layout)
    {
        m_model = MakeModel(preset);
        m_config = config;
        m_layout = layout;
        m_report = std::make_unique<TrafficReport>();
        Rebuild();
    }

    /**
     * Build the report again from the model, configuration and layout as they are now.
     * @param algorithms the algorithms.
     */
    void Rebuild(const CollectiveChoices& algorithms = CollectiveChoices())
    {
        BuildOrAbort(*m_report, m_model, m_config, m_layout, algorithms);
    }

    /**
     * Expect each row's entry to be in the report, with the row's fields.
     * @param rows the expected entries.
     */
    void CheckEntries(const std::vector<ExpectedEntry>& rows)
    {
        for (const ExpectedEntry& row : rows)
        {
            const EntryKey& key = row.key;
            const std::vector<TrafficEntry> found =
                Find(*m_report, key.rank, key.strategy, key.kind, key.phase);
            NS_TEST_EXPECT_MSG_EQ(found.size(), key.matching, row.what << ": matching entries");
            if (key.index >= found.size())
            {
                continue;
            }
            const TrafficEntry& entry = found[key.index];
            Expect(entry.messageBytes, row.messageBytes, row.what + ": message bytes");
            Expect(entry.count, row.count, row.what + ": count");
            if (row.members)
            {
                NS_TEST_EXPECT_MSG_EQ((entry.GetMembers() == *row.members),
                                      true,
                                      row.what << ": members");
            }
            Expect(entry.groupRank, row.groupRank, row.what + ": place in the group");
            Expect(entry.variant, row.variant, row.what + ": variant");
            Expect(entry.bytes.intraSent, row.intraSent, row.what + ": intra sent");
            Expect(entry.bytes.interSent, row.interSent, row.what + ": inter sent");
            Expect(entry.bytes.intraReceived, row.intraReceived, row.what + ": intra received");
            Expect(entry.bytes.interReceived, row.interReceived, row.what + ": inter received");
        }
    }

    /**
     * Expect each row's bytes of the rank's totals.
     * @param rows the expected totals.
     */
    void CheckTotals(const std::vector<ExpectedTotal>& rows)
    {
        for (const ExpectedTotal& row : rows)
        {
            const TrafficTotals& totals = m_report->GetRankTotals(row.rank);
            const TrafficBytes& bytes = row.strategy ? totals.Of(*row.strategy) : totals.all;
            NS_TEST_EXPECT_MSG_EQ(Pick(bytes, row.bytes), row.value, row.what);
        }
    }

    /**
     * Expect two byte counts to be equal, field by field.
     * @param expected the expected counts.
     * @param actual the report's.
     * @param what for the message.
     */
    void ExpectEqual(const TrafficBytes& expected,
                     const TrafficBytes& actual,
                     const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(actual.intraSent, expected.intraSent, what << " intra sent");
        NS_TEST_EXPECT_MSG_EQ(actual.interSent, expected.interSent, what << " inter sent");
        NS_TEST_EXPECT_MSG_EQ(actual.intraReceived, expected.intraReceived, what << " intra recv");
        NS_TEST_EXPECT_MSG_EQ(actual.interReceived, expected.interReceived, what << " inter recv");
    }

    Ptr<TransformerSpec> m_model;            //!< The model of Start.
    Ptr<TrainingConfig> m_config;            //!< The configuration.
    Ptr<ParallelLayout> m_layout;            //!< The layout.
    std::unique_ptr<TrafficReport> m_report; //!< The report, built by Start and Rebuild.

  private:
    void DoTeardown() override
    {
        m_model = nullptr;
        m_config = nullptr;
        m_layout = nullptr;
        m_report.reset();
    }

    /**
     * Expect a value if one is expected.
     * @param actual the report's.
     * @param expected the row's, or {} when not checked.
     * @param what for the message.
     */
    template <typename T>
    void Expect(const T& actual, const std::optional<T>& expected, const std::string& what)
    {
        if (expected)
        {
            NS_TEST_EXPECT_MSG_EQ(actual, *expected, what);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-2 small, pure data parallelism: the gradient all-reduce, with ring, naive
 * and double binary tree algorithms, and its intra/inter-server split.
 */
class TrafficReportDataParallelTestCase : public TrafficReportTestCase
{
  public:
    /** Create the test case. */
    TrafficReportDataParallelTestCase()
        : TrafficReportTestCase("GPT-2 small data parallel gradient all-reduce")
    {
    }

  private:
    void DoRun() override
    {
        // GPT-2 small has 124,439,808 parameters; bf16 gradients: S = 248,879,616
        // bytes, and S / 4 = 62,219,904. Ring (NCCL bus bandwidth): 2 (n-1)/n S = 2
        // x 3 x 62,219,904 = 373,319,424 sent and received by every rank, once per
        // iteration.
        Start("gpt2-small", MakeConfig(512, 1), MakeLayout(1, 1, 1, 4, 1, 8));
        NS_TEST_EXPECT_MSG_EQ(m_report->GetMicroBatches(), 128u, "512 / (1 x 4)");
        for (uint32_t r = 0; r < 4; ++r)
        {
            // One collective, no sharding: S = 2 x params once per iteration in the DP group
            // at index r, 2 x 3/4 x S sent and received, none across servers (one server).
            NS_TEST_EXPECT_MSG_EQ(m_report->GetRankEntries(r).size(), 1u, "one collective");
            const std::string name = "DP all-reduce of rank " + std::to_string(r);
            CheckEntries({{name,
                           {r, TrafficStrategy::DP},
                           248879616u,
                           1u,
                           Ranks(0, 4, 1),
                           r,
                           "none",
                           373319424u,
                           0u,
                           373319424u}});
            CheckTotals({{name + ": DP total", r, TrafficStrategy::DP, Bytes::SENT, 373319424u}});
        }

        // Two GPUs per server: ring r -> r + 1. Rank 0 sends to 1 (server 0, intra)
        // and receives from 3 (server 1, inter); rank 1 sends to 2 (inter) and
        // receives from 0 (intra).
        m_layout = MakeLayout(1, 1, 1, 4, 1, 2);
        Rebuild();
        CheckTotals({{"0 -> 1", 0, {}, Bytes::INTRA_SENT, 373319424u},
                     {"3 -> 0", 0, {}, Bytes::INTER_RECEIVED, 373319424u},
                     {"1 -> 2", 1, {}, Bytes::INTER_SENT, 373319424u},
                     {"0 -> 1", 1, {}, Bytes::INTRA_RECEIVED, 373319424u}});

        // Naive: rank 0 sends (n-1) S = 746,638,848, the others S = 248,879,616.
        CollectiveChoices naive;
        naive.Set(CollectiveKind::ALL_REDUCE,
                  CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm::NAIVE));
        m_layout = MakeLayout(1, 1, 1, 4, 1, 8);
        Rebuild(naive);
        CheckTotals({{"naive root", 0, {}, Bytes::SENT, 746638848u},
                     {"naive leaf", 1, {}, Bytes::SENT, 248879616u}});
        NS_TEST_EXPECT_MSG_EQ((m_report->GetRankEntries(0)[0].algorithm ==
                               CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm::NAIVE)),
                              true,
                              "algorithm recorded");

        // Double binary tree, n = 4, halves of S/2 = 124,439,808. Tree 0: 0 -> 2 ->
        // {1, 3}; tree 1 (mirror): rank r at place 3 - r, so rank 1 is the root's
        // child and rank 0, 2 are leaves under it. Rank 0: root of tree 0 with one
        // child (sends its half once down), leaf of tree 1 (sends its half once
        // up): S. Rank 2: interior in tree 0 (up once, down to two children: 3
        // halves), leaf in tree 1 (1 half): 4 x S/2 = 497,759,232.
        CollectiveChoices tree;
        tree.Set(CollectiveKind::ALL_REDUCE,
                 CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm::DOUBLE_BINARY_TREE));
        Rebuild(tree);
        CheckTotals({{"tree rank 0", 0, {}, Bytes::SENT, 248879616u},
                     {"tree rank 2", 2, {}, Bytes::SENT, 497759232u}});

        // A problem of the layout is returned as Check() words it.
        NS_TEST_EXPECT_MSG_EQ(
            m_report->Build({m_model, m_config, m_layout, 8, CreateObject<GpuSpec>()}),
            "tp 1 x cp 1 x pp 1 x dp 4 = 4 != 8 GPUs",
            "layout problem");
        NS_TEST_EXPECT_MSG_EQ(m_report->GetRankCount(), 0u, "empty after a problem");
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-2 small with tensor parallelism 2 on one server, with and without
 * sequence parallelism.
 */
class TrafficReportTensorParallelTestCase : public TrafficReportTestCase
{
  public:
    /** Create the test case. */
    TrafficReportTensorParallelTestCase()
        : TrafficReportTestCase("GPT-2 small tensor parallel all-reduces and sequence "
                                "parallelism")
    {
    }

  private:
    void DoRun() override
    {
        // b = 2, s = 1024, h = 768, A = 2: S = 2 x 1024 x 768 x 2 = 3,145,728
        // (Narayanan 2021 2.3). m = 8 / (2 x 1) = 4, l = 12: 2 l m = 96 all-reduces
        // forward, 96 backward. Ring with n = 2 sends 2 x 1/2 x S = S per
        // all-reduce: 192 x 3,145,728 = 603,979,776, all intra.
        Start("gpt2-small", MakeConfig(8, 2), MakeLayout(2, 1, 1, 1, 1, 8));
        for (uint32_t r = 0; r < 2; ++r)
        {
            const std::string name = "rank " + std::to_string(r);
            CheckEntries(
                {{name + " forward: b s h A, 2 l m, TP group",
                  {r, TrafficStrategy::TP, CollectiveKind::ALL_REDUCE, TrafficPhase::FORWARD},
                  3145728u,
                  96u,
                  Ranks(0, 2, 1)},
                 {name + " backward: 2 l m", {r, TrafficStrategy::TP}, {}, 96u}});
            CheckTotals(
                {{name + ": 192 x S", r, TrafficStrategy::TP, Bytes::INTRA_SENT, 603979776u},
                 {name + ": 192 x S", r, TrafficStrategy::TP, Bytes::INTRA_RECEIVED, 603979776u},
                 {name + ": one server", r, TrafficStrategy::TP, Bytes::INTER_SENT, 0u}});
            NS_TEST_EXPECT_MSG_EQ(m_report->GetRankEntries(r).size(), 2u, "no DP (dp 1)");
        }

        // Sequence parallelism (Korthikanti 2022): per layer and micro-batch 2
        // all-gathers and 2 reduce-scatters forward and the same backward, S =
        // 3,145,728. Ring with n = 2: each sends S/2 = 1,572,864; 4 x 96 = 384
        // collectives x S/2 = 603,979,776, the same volume.
        m_layout->SetAttribute("SequenceParallel", BooleanValue(true));
        Rebuild();
        CheckEntries({{"forward all-gathers: gathered b s h A, 2 l m, S/2 each",
                       {0, TrafficStrategy::TP, CollectiveKind::ALL_GATHER, TrafficPhase::FORWARD},
                       3145728u,
                       96u,
                       {},
                       {},
                       {},
                       96u * 1572864u}});
        NS_TEST_EXPECT_MSG_EQ(m_report->GetRankEntries(0).size(), 4u, "AG, RS x fwd, bwd");
        CheckTotals(
            {{"same volume as all-reduce", 0, TrafficStrategy::TP, Bytes::INTRA_SENT, 603979776u}});

        // FULL recomputation reruns the forward collectives in backward: without
        // sequence parallelism 96 + 2 x 96 = 288 all-reduces x S = 905,969,664.
        m_layout->SetAttribute("SequenceParallel", BooleanValue(false));
        m_config->SetRecomputation(TrainingConfig::FULL);
        Rebuild();
        CheckTotals({{"recomputed forward all-reduces",
                      1,
                      TrafficStrategy::TP,
                      Bytes::INTRA_SENT,
                      905969664u}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-2 small with pipeline parallelism 2: send/recv counts, bytes, the
 * tied-embedding all-reduce, the stages' parameters and interleaving.
 */
class TrafficReportPipelineTestCase : public TrafficReportTestCase
{
  public:
    /** Create the test case. */
    TrafficReportPipelineTestCase()
        : TrafficReportTestCase("GPT-2 small pipeline send and receive")
    {
    }

  private:
    void DoRun() override
    {
        // S = b s h A = 1 x 1024 x 768 x 2 = 1,572,864; m = 8 / 1 = 8. Rank 0
        // (stage 0) sends activations 8 times and receives gradients 8 times; rank
        // 1 the converse. GpusPerServer 1: every transfer is inter-server.
        Start("gpt2-small", MakeConfig(8, 1), MakeLayout(1, 1, 2, 1, 1, 1));
        // Stage 0 has three entries: that forward send, that backward receive and the
        // tied-embedding all-reduce below (dp 1: no DP).
        NS_TEST_EXPECT_MSG_EQ(m_report->GetRankEntries(0).size(), 3u, "send, receive, embedding");
        CheckEntries({{"stage 0 only sends forward: b s h A, m, {0 -> 1}, 8 S",
                       {0, TrafficStrategy::PP, CollectiveKind::SEND_RECV, TrafficPhase::FORWARD},
                       1572864u,
                       8u,
                       Ranks(0, 2, 1),
                       {},
                       {},
                       {},
                       8u * 1572864u},
                      {"stage 0 only receives backward: nothing sent, 8 S received",
                       {0, TrafficStrategy::PP, CollectiveKind::SEND_RECV, TrafficPhase::BACKWARD},
                       {},
                       {},
                       {},
                       {},
                       {},
                       {},
                       0u,
                       {},
                       8u * 1572864u}});

        // Tied embedding (Megatron-LM): V h = 50,257 x 768 = 38,597,376 parameters,
        // S = 77,194,752 bytes; ring all-reduce with n = 2 sends S. Stage 0's PP
        // sends: 12,582,912 + 77,194,752 = 89,777,664; rank 1 the same (gradients
        // back + embedding).
        CheckEntries({{"embedding all-reduce: 2 V h", {1, TrafficStrategy::PP}, 77194752u}});
        CheckTotals({{"stage 0 PP bytes", 0, TrafficStrategy::PP, Bytes::INTER_SENT, 89777664u},
                     {"stage 1 PP bytes", 1, TrafficStrategy::PP, Bytes::INTER_SENT, 89777664u}});

        // Parameters per GPT-2 layer: norms 2 x 1,536 = 3,072; attention 4 h^2 + 4
        // h = 2,362,368; FFN 2 x 768 x 3,072 + 3,072 + 768 = 4,722,432: 7,087,872.
        // Stage 0: token and position embeddings 50,257 x 768 + 1,024 x 768 =
        // 39,383,808 plus 6 layers 42,527,232 = 81,911,040. Stage 1: 6 layers,
        // final norm 1,536 and the embedding copy 38,597,376 = 81,126,144.
        NS_TEST_EXPECT_MSG_EQ(m_report->GetDenseParameters(0), 81911040u, "stage 0");
        NS_TEST_EXPECT_MSG_EQ(m_report->GetDenseParameters(1), 81126144u, "stage 1");

        // Interleaved, 2 virtual stages: stage 0 holds chunks 0 and 2, stage 1
        // chunks 1 and 3. Stage 0 sends forward at boundaries 0 -> 1 and 2 -> 3 (2
        // m = 16) and receives at 1 -> 2 (m = 8); stage 1 sends at 1 -> 2 (8) and
        // receives at 0 -> 1 and 2 -> 3 (16).
        m_layout->SetAttribute("VirtualStages", UintegerValue(2));
        Rebuild();
        CheckEntries(
            {{"interleaved sends: 2 m",
              {0, TrafficStrategy::PP, CollectiveKind::SEND_RECV, TrafficPhase::FORWARD, 2, 0},
              {},
              16u},
             {"interleaved receives: m, receiver, m S",
              {0, TrafficStrategy::PP, CollectiveKind::SEND_RECV, TrafficPhase::FORWARD, 2, 1},
              {},
              8u,
              {},
              1u,
              {},
              {},
              {},
              {},
              8u * 1572864u}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-3 175B on 1024 GPUs, tp 8 x pp 8 x dp 16, 8 GPUs per server.
 */
class TrafficReportGpt3TestCase : public TrafficReportTestCase
{
  public:
    /** Create the test case. */
    TrafficReportGpt3TestCase()
        : TrafficReportTestCase("GPT-3 175B tp 8 x pp 8 x dp 16")
    {
    }

  private:
    void DoRun() override
    {
        // Rank order tp-cp-ep-dp-pp: rank = tp + 8 (dp + 16 pp); server = rank / 8
        // = dp + 16 pp. TP groups are servers (intra); DP peers are 8 ranks apart
        // and PP peers 128 (inter).
        auto start = std::chrono::steady_clock::now();
        Start("gpt3-175b", MakeConfig(1536, 1), MakeLayout(8, 1, 8, 16, 1, 8));
        TrafficTotals totals = m_report->GetTotals();
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        NS_TEST_EXPECT_MSG_LT(seconds, 1.0, "1024 ranks well under a second");
        NS_TEST_EXPECT_MSG_EQ(m_report->GetMicroBatches(), 96u, "1536 / 16");

        // Rank 3 x 128 + 5 x 8 + 2 = 426: tp 2, dp 5, stage 3 (a middle stage).
        const uint32_t rank = 426;
        const TrafficTotals& own = m_report->GetRankTotals(rank);

        // TP: S = b s h A = 2,048 x 12,288 x 2 = 50,331,648; l = 96 / 8 = 12, m =
        // 96: 2 l m = 2,304 all-reduces forward and 2,304 backward; ring n = 8
        // sends 2 x 7/8 S = 88,080,384: 4,608 x 88,080,384 = 405,874,409,472, all
        // intra-server.
        CheckEntries(
            {{"TP forward: b s h A, 2 l m, TP group",
              {rank, TrafficStrategy::TP, CollectiveKind::ALL_REDUCE, TrafficPhase::FORWARD},
              50331648u,
              2304u,
              Ranks(424, 8, 1)}});
        CheckTotals(
            {{"TP bytes", rank, TrafficStrategy::TP, Bytes::INTRA_SENT, uint64_t{405874409472}},
             {"TP intra-server", rank, TrafficStrategy::TP, Bytes::INTER_SENT, 0u}});

        // PP: S = 50,331,648 (no sequence parallelism); a middle stage sends m
        // activations forward and m gradients backward: 192 x S = 9,663,676,416,
        // inter-server. No embedding all-reduce on a middle stage.
        CheckTotals(
            {{"PP bytes", rank, TrafficStrategy::PP, Bytes::INTER_SENT, uint64_t{9663676416}},
             {"PP bytes received",
              rank,
              TrafficStrategy::PP,
              Bytes::INTER_RECEIVED,
              uint64_t{9663676416}},
             {"PP inter-server", rank, TrafficStrategy::PP, Bytes::INTRA_SENT, 0u}});

        // DP: a GPT-3 layer has norms 4 h = 49,152, attention 4 h^2 + 4 h =
        // 604,028,928 and FFN 2 x 12,288 x 49,152 + 49,152 + 12,288 =
        // 1,208,020,992: 1,812,099,072 parameters. The stage's 12 layers over tp 8:
        // 12 x 226,512,384 = 2,718,148,608 per rank, S = 5,436,297,216 bytes; ring
        // n = 16: 2 x 15/16 S = 30 x 339,768,576 = 10,193,057,280.
        NS_TEST_EXPECT_MSG_EQ(m_report->GetDenseParameters(3), uint64_t{21745188864}, "12 layers");
        CheckEntries({{"DP all-reduce: 2 P / 8, DP group",
                       {rank, TrafficStrategy::DP},
                       uint64_t{5436297216},
                       {},
                       Ranks(386, 16, 8)}});
        CheckTotals(
            {{"DP bytes", rank, TrafficStrategy::DP, Bytes::INTER_SENT, uint64_t{10193057280}},
             {"DP inter-server", rank, TrafficStrategy::DP, Bytes::INTRA_SENT, 0u}});

        // First stage (rank 2: tp 2, dp 0): the tied-embedding all-reduce with the
        // last stage (rank 2 + 7 x 128 = 898) of V h / 8 = 50,257 x 12,288 / 8 =
        // 77,194,752 parameters, S = 154,389,504, ring n = 2 sends S.
        CheckEntries({{"embedding all-reduce: 2 V h / 8, pair",
                       {2, TrafficStrategy::PP},
                       154389504u,
                       {},
                       std::vector<uint32_t>{2, 898}}});

        // Bandwidth to hide the inter-server bytes behind the compute.
        double expected = static_cast<double>(own.all.interSent) * 8.0 /
                          m_report->GetComputeTime(rank).GetSeconds();
        NS_TEST_EXPECT_MSG_EQ_TOL(m_report->GetRequiredBandwidth(rank),
                                  expected,
                                  expected * 1e-12,
                                  "bits / compute time");
        NS_TEST_EXPECT_MSG_GT(m_report->GetComputeTime(rank).GetSeconds(), 0.0, "compute");

        // Sums over 1024 ranks: TP 1024 x 405,874,409,472 (every rank is the same).
        NS_TEST_EXPECT_MSG_EQ(totals.Of(TrafficStrategy::TP).intraSent,
                              uint64_t{405874409472} * 1024,
                              "TP sum");
        NS_TEST_EXPECT_MSG_EQ(totals.all.interSent, totals.all.interReceived, "conservation");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Llama 3 8B with ZeRO-3, FSDP FULL_SHARD and HYBRID_SHARD.
 */
class TrafficReportShardingTestCase : public TrafficReportTestCase
{
  public:
    /** Create the test case. */
    TrafficReportShardingTestCase()
        : TrafficReportTestCase("Llama 3 8B ZeRO-3 and FSDP")
    {
    }

  private:
    void DoRun() override
    {
        // Llama 3 8B: 8,030,261,248 parameters; W = 2: S = 16,060,522,496, S / 8 =
        // 2,007,565,312. dp 8 on one server, m = 64 / 8 = 8. FULL_SHARD: all-gather
        // forward and backward per micro-batch (16 x, ring sends 7/8 S =
        // 14,052,957,184 each), one reduce-scatter of the gradients (7/8 S): 17 x
        // 14,052,957,184 = 238,900,272,128.
        Ptr<ParallelLayout> layout = MakeLayout(1, 1, 1, 8, 1, 8);
        layout->SetFsdp(ParallelLayout::FULL_SHARD);
        Start("llama3-8b", MakeConfig(64, 1), layout);
        CheckEntries(
            {{"forward all-gather: 2 P, per micro-batch",
              {5, TrafficStrategy::DP, CollectiveKind::ALL_GATHER, TrafficPhase::FORWARD},
              uint64_t{16060522496},
              8u,
              {},
              {},
              "fsdp-full-shard"},
             {"reduce-scatter: per iteration",
              {5, TrafficStrategy::DP, CollectiveKind::REDUCE_SCATTER, TrafficPhase::BACKWARD},
              {},
              1u}});
        CheckTotals({{"FULL_SHARD bytes",
                      5,
                      TrafficStrategy::DP,
                      Bytes::INTRA_SENT,
                      uint64_t{238900272128}}});

        // ZeRO-3: the same collectives.
        m_layout->SetFsdp(ParallelLayout::NONE);
        m_layout->SetAttribute("ZeroStage", UintegerValue(3));
        Rebuild();
        CheckTotals(
            {{"ZeRO-3 bytes", 5, TrafficStrategy::DP, Bytes::INTRA_SENT, uint64_t{238900272128}}});
        NS_TEST_EXPECT_MSG_EQ(m_report->GetRankEntries(5)[0].variant, "zero-3", "variant");

        // ZeRO-1: one reduce-scatter (7/8 S) and one all-gather (7/8 S) = 2 x
        // 14,052,957,184 = 28,105,914,368, the all-reduce's volume (Rajbhandari
        // 2020, 7.2.1).
        m_layout->SetAttribute("ZeroStage", UintegerValue(1));
        Rebuild();
        CheckTotals(
            {{"ZeRO-1 bytes", 5, TrafficStrategy::DP, Bytes::INTRA_SENT, uint64_t{28105914368}}});

        // HYBRID_SHARD, dp 16 on 2 servers, m = 128 / 16 = 8: FULL_SHARD among the
        // 8 ranks of a server (238,900,272,128 intra as above), then a ring
        // all-reduce of the gradient shard S / 8 = 2,007,565,312 with the rank 8
        // apart (n = 2: sends the whole shard), inter.
        m_layout->SetAttribute("ZeroStage", UintegerValue(0));
        m_layout->SetAttribute("Dp", UintegerValue(16));
        m_layout->SetFsdp(ParallelLayout::HYBRID_SHARD);
        m_config = MakeConfig(128, 1);
        Rebuild();
        CheckTotals(
            {{"shard group", 3, TrafficStrategy::DP, Bytes::INTRA_SENT, uint64_t{238900272128}},
             {"replica all-reduce",
              3,
              TrafficStrategy::DP,
              Bytes::INTER_SENT,
              uint64_t{2007565312}}});
        CheckEntries({{"replica all-reduce: pair",
                       {3, TrafficStrategy::DP},
                       {},
                       {},
                       std::vector<uint32_t>{3, 11}}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * Llama 3 8B with context parallelism 2, all-gather style and Ulysses.
 */
class TrafficReportContextParallelTestCase : public TrafficReportTestCase
{
  public:
    /** Create the test case. */
    TrafficReportContextParallelTestCase()
        : TrafficReportTestCase("Llama 3 8B context parallel 2")
    {
    }

  private:
    void DoRun() override
    {
        // s = 8,192, 8 KV heads of d = 128, b = 1, A = 2, m = 4 / 1 = 4, l = 32.
        // Llama 3: the all-gather of K and V, S = 2 b s kv d A = 2 x 8,192 x 8 x
        // 128 x 2 = 33,554,432; ring n = 2 sends S/2 = 16,777,216. Forward l m =
        // 128 all-gathers, backward 128 reduce-scatters (S/2 each): 256 x
        // 16,777,216 = 4,294,967,296.
        Start("llama3-8b", MakeConfig(4, 1), MakeLayout(1, 2, 1, 1, 1, 8));
        CheckEntries({{"K, V all-gather: 2 b s kv d A, l m",
                       {1, TrafficStrategy::CP, CollectiveKind::ALL_GATHER, TrafficPhase::FORWARD},
                       33554432u,
                       128u}});
        CheckTotals(
            {{"CP bytes", 1, TrafficStrategy::CP, Bytes::INTRA_SENT, uint64_t{4294967296}}});

        // The DP gradient group is DP_CP = {0, 1}: all-reduce of 2 x 8,030,261,248
        // = 16,060,522,496 bytes, ring n = 2 sends S.
        CheckEntries({{"gradients over DP_CP: DP_CP group, S",
                       {1, TrafficStrategy::DP},
                       {},
                       {},
                       Ranks(0, 2, 1),
                       {},
                       {},
                       uint64_t{16060522496}}});

        // Ulysses (Jacobs 2023): send buffers Q and output b (s/2) h A = 4,096 x
        // 4,096 x 2 = 33,554,432, K and V b (s/2) kv d A = 4,096 x 1,024 x 2 =
        // 8,388,608. All-to-all n = 2 sends half of each. Per phase 2 l m = 256 of
        // each pair: 256 x (16,777,216 + 4,194,304) = 5,368,709,120; forward and
        // backward: 10,737,418,240.
        m_layout->SetCpStyle(ParallelLayout::ULYSSES);
        Rebuild();
        CheckEntries(
            {{"Q/output buffer, 2 l m",
              {0, TrafficStrategy::CP, CollectiveKind::ALL_TO_ALL, TrafficPhase::FORWARD, 2, 0},
              33554432u,
              256u},
             {"K/V buffer",
              {0, TrafficStrategy::CP, CollectiveKind::ALL_TO_ALL, TrafficPhase::FORWARD, 2, 1},
              8388608u}});
        CheckTotals(
            {{"Ulysses bytes", 0, TrafficStrategy::CP, Bytes::INTRA_SENT, uint64_t{10737418240}}});

        // Cp 16 does not divide the 8 KV heads: not supported (32 heads / 16 is
        // fine for Check).
        Ptr<ParallelLayout> wide = MakeLayout(1, 16, 1, 1, 1, 8);
        wide->SetCpStyle(ParallelLayout::ULYSSES);
        NS_TEST_EXPECT_MSG_EQ(
            m_report->Build({m_model, m_config, wide, 16, CreateObject<GpuSpec>()}),
            "Ulysses with Cp (16) not dividing the 8 KV heads per TP rank (KV "
            "head replication) is not supported yet",
            "Ulysses KV replication");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Mixtral 8x7B with expert parallelism 8.
 */
class TrafficReportExpertParallelTestCase : public TrafficReportTestCase
{
  public:
    /** Create the test case. */
    TrafficReportExpertParallelTestCase()
        : TrafficReportTestCase("Mixtral 8x7B expert parallel all-to-all")
    {
    }

  private:
    void DoRun() override
    {
        // dp 8, ep 8, 4 GPUs per server; s = 4,096, b = 1, TopK 2, h = 4,096, A =
        // 2, capacity factor 1: S = 4,096 x 2 x 4,096 x 2 = 67,108,864, chunk S / 8
        // = 8,388,608. Rank 0 sends 7 chunks, 3 to ranks 1-3 (intra: 25,165,824)
        // and 4 to ranks 4-7 (inter: 33,554,432). m = 16 / 8 = 2, 32 MoE layers:
        // count l m = 64 for each of dispatch and combine, forward and backward:
        // 256 x 58,720,256 = 15,032,385,536 sent, of which 256 x 33,554,432 =
        // 8,589,934,592 inter-server.
        Start("mixtral-8x7b", MakeConfig(16, 1, 4096), MakeLayout(1, 1, 1, 8, 8, 4));
        CheckEntries(
            {{"dispatch (of dispatch and combine): tokens TopK h A, l m, EP group, 3 chunks "
              "intra, 4 chunks inter",
              {0, TrafficStrategy::EP, CollectiveKind::ALL_TO_ALL, TrafficPhase::FORWARD, 2, 0},
              67108864u,
              64u,
              Ranks(0, 8, 1),
              {},
              {},
              64u * 25165824u,
              64u * 33554432u}});
        CheckTotals(
            {{"EP bytes", 0, TrafficStrategy::EP, Bytes::SENT, uint64_t{15032385536}},
             {"EP inter", 0, TrafficStrategy::EP, Bytes::INTER_SENT, uint64_t{8589934592}}});

        // Dense parameters (reduced over DP): per layer norms 8,192, attention 2
        // h^2 + 2 h x 1,024 = 41,943,040, router 4,096 x 8 = 32,768: 41,984,000 x
        // 32 = 1,343,488,000; token embedding and head 2 x 32,000 x 4,096 =
        // 262,144,000; final norm 4,096: 1,605,636,096. The experts (8 per layer)
        // are reduced over EXPERT_DP, of size 8 / 8 = 1: no traffic.
        NS_TEST_EXPECT_MSG_EQ(m_report->GetDenseParameters(0), uint64_t{1605636096}, "dense");
        for (const TrafficEntry& entry : m_report->GetRankEntries(0))
        {
            NS_TEST_EXPECT_MSG_EQ(entry.what.find("expert"), std::string::npos, "no expert DP");
        }

        // Capacity factor 1.25 (Switch): ceil(1.25 x 8,192) = 10,240 slots x 4,096
        // x 2 = 83,886,080, in the backward dispatch and combine as in the forward.
        m_model->SetAttribute("CapacityFactor", DoubleValue(1.25));
        Rebuild();
        CheckEntries(
            {{"padded buffer",
              {0, TrafficStrategy::EP, CollectiveKind::ALL_TO_ALL, TrafficPhase::BACKWARD, 2, 0},
              83886080u}});
    }
};

/**
 * @ingroup llm-fabric-tests
 * For every rank of a layout using every strategy, the totals are the sums of
 * the entries, and over all ranks every byte sent is received (per link class).
 */
class TrafficReportTotalsTestCase : public TrafficReportTestCase
{
  public:
    /** Create the test case. */
    TrafficReportTotalsTestCase()
        : TrafficReportTestCase("Totals are the sums of the entries")
    {
    }

  private:
    void DoRun() override
    {
        // Mixtral, tp 2 x cp 2 x pp 2 x dp 2, ep 2, sequence parallel, ZeRO-1, 4
        // GPUs per server: 16 ranks, expert-DP groups of 2 x 2 / 2 = 2.
        Ptr<TransformerSpec> mixtral = MakeModel("mixtral-8x7b");
        Ptr<ParallelLayout> layout = MakeLayout(2, 2, 2, 2, 2, 4);
        layout->SetAttribute("SequenceParallel", BooleanValue(true));
        layout->SetAttribute("ZeroStage", UintegerValue(1));
        TrafficReport report;
        BuildOrAbort(report, mixtral, MakeConfig(8, 1, 4096), layout);
        TrafficTotals sum;
        for (uint32_t r = 0; r < report.GetRankCount(); ++r)
        {
            TrafficTotals own;
            bool strategies[TRAFFIC_STRATEGIES] = {false, false, false, false, false};
            for (const TrafficEntry& entry : report.GetRankEntries(r))
            {
                std::size_t s = static_cast<std::size_t>(entry.strategy);
                strategies[s] = true;
                own.byStrategy[s].Add(entry.bytes);
                own.all.Add(entry.bytes);
            }
            for (bool present : strategies)
            {
                NS_TEST_EXPECT_MSG_EQ(present, true, "every strategy has traffic");
            }
            const TrafficTotals& reported = report.GetRankTotals(r);
            for (std::size_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
            {
                ExpectEqual(own.byStrategy[s],
                            reported.byStrategy[s],
                            "rank " + std::to_string(r) + " strategy " + std::to_string(s));
                sum.byStrategy[s].Add(own.byStrategy[s]);
            }
            NS_TEST_EXPECT_MSG_EQ(reported.all.Sent(), own.all.Sent(), "rank " << r);
            NS_TEST_EXPECT_MSG_EQ(reported.all.Received(), own.all.Received(), "rank " << r);
            sum.all.Add(own.all);
        }
        TrafficTotals totals = report.GetTotals();
        for (std::size_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(totals.byStrategy[s].Sent(), sum.byStrategy[s].Sent(), "sum");
            // Every byte sent is received, on the same class of link.
            NS_TEST_EXPECT_MSG_EQ(totals.byStrategy[s].intraSent,
                                  totals.byStrategy[s].intraReceived,
                                  "intra conservation");
            NS_TEST_EXPECT_MSG_EQ(totals.byStrategy[s].interSent,
                                  totals.byStrategy[s].interReceived,
                                  "inter conservation");
        }
        NS_TEST_EXPECT_MSG_EQ(totals.all.Sent(), sum.all.Sent(), "sum of all");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A test case that checks a rank's entries against the independent analytical oracle
 * (CollectiveVolume in test/): every entry's steps and intra-/inter-server bytes, and the rank's
 * per-strategy totals.
 */
class TrafficReportOracleTestCase : public TrafficReportTestCase
{
  public:
    /**
     * Create the test case.
     * @param name its description.
     */
    explicit TrafficReportOracleTestCase(const std::string& name)
        : TrafficReportTestCase(name)
    {
    }

  protected:
    /**
     * Expect a rank's entries and totals to be the oracle's.
     * @param report a built report.
     * @param layout its layout.
     * @param rank a rank.
     * @param name for the messages.
     */
    void CheckRank(const TrafficReport& report,
                   const ParallelLayout& layout,
                   uint32_t rank,
                   const std::string& name)
    {
        std::array<TrafficBytes, TRAFFIC_STRATEGIES> expected{};
        for (const TrafficEntry& entry : report.GetRankEntries(rank))
        {
            RankVolume volume;
            NS_TEST_ASSERT_MSG_EQ(
                CollectiveVolume::Compute(entry.kind,
                                          CollectiveVolume::GetAlgorithmOf(entry.algorithm),
                                          entry.GetGroupSize(),
                                          entry.messageBytes,
                                          entry.groupRank,
                                          volume,
                                          LocalSizeOf(layout, entry.GetMembers())),
                "",
                name << " " << entry.what);
            NS_TEST_EXPECT_MSG_EQ(entry.steps, volume.steps, name << " " << entry.what);
            TrafficBytes bytes;
            const uint32_t server = layout.GetServer(rank);
            for (const CollectiveTransfer& send : volume.sends)
            {
                bool intra = layout.GetServer(entry.GetMembers()[send.peer]) == server;
                (intra ? bytes.intraSent : bytes.interSent) += send.bytes * entry.count;
            }
            for (const CollectiveTransfer& receive : volume.receives)
            {
                bool intra = layout.GetServer(entry.GetMembers()[receive.peer]) == server;
                (intra ? bytes.intraReceived : bytes.interReceived) += receive.bytes * entry.count;
            }
            ExpectEqual(bytes, entry.bytes, name + " " + entry.what);
            expected[static_cast<std::size_t>(entry.strategy)].Add(bytes);
        }
        for (std::size_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
        {
            ExpectEqual(expected[s],
                        report.GetRankTotals(rank).byStrategy[s],
                        name + " rank " + std::to_string(rank) + " strategy " + std::to_string(s));
        }
    }

    /**
     * The oracle's localSize for a group: the group's ranks per server when it is made of whole,
     * equal blocks of consecutive members per server (how HIERARCHICAL is laid out), else 1.
     * Written here again, apart from CollectiveStrategy::LocalSizeOf.
     * @param layout the layout.
     * @param members the group.
     * @return the localSize.
     */
    static uint32_t LocalSizeOf(const ParallelLayout& layout, const std::vector<uint32_t>& members)
    {
        std::map<uint32_t, uint32_t> perServer;
        for (uint32_t m : members)
        {
            ++perServer[layout.GetServer(m)];
        }
        const uint32_t block = perServer[layout.GetServer(members[0])];
        for (std::size_t i = 0; i < members.size(); ++i)
        {
            if (perServer[layout.GetServer(members[i])] != block ||
                layout.GetServer(members[i]) != layout.GetServer(members[i - i % block]))
            {
                return 1;
            }
        }
        return block;
    }
};

/**
 * @ingroup llm-fabric-tests
 * The shipped scenarios: the report derives each collective's bytes from the strategy's own
 * schedule (CollectiveStrategy::Tally). For sampled ranks of all seven scenarios of scenarios/,
 * every entry's steps and intra-/inter-server bytes equal the independent oracle's
 * (CollectiveVolume in test/, derived analytically per rank), and so do the per-strategy totals.
 */
class TrafficReportShippedScenariosTestCase : public TrafficReportOracleTestCase
{
  public:
    TrafficReportShippedScenariosTestCase()
        : TrafficReportOracleTestCase("The 7 shipped scenarios: every sampled rank's entries and "
                                      "per-strategy totals equal the analytical oracle's")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> names = {"gpt2-small-16gpu",
                                                "gpt3-175b",
                                                "llama3-405b",
                                                "llama3-70b",
                                                "llama3-8b-128gpu",
                                                "mixtral-8x7b",
                                                "mixtral-ep-incast-16gpu"};
        for (const std::string& name : names)
        {
            Scenario scenario;
            std::string path = std::string(LLM_FABRIC_SOURCE_DIR) + "/scenarios/" + name + ".yaml";
            NS_TEST_ASSERT_MSG_EQ(Scenario::Load(path, scenario), "", name);
            Ptr<ParallelLayout> layout = scenario.GetLayout();
            TrafficReport report;
            NS_TEST_ASSERT_MSG_EQ(report.Build({scenario.GetModel(),
                                                scenario.GetTraining(),
                                                layout,
                                                scenario.GetGpus(),
                                                scenario.GetGpu(),
                                                scenario.GetAlgorithms()}),
                                  "",
                                  name);
            const uint32_t ranks = report.GetRankCount();
            for (uint32_t sample : {0U, 1U, ranks / 2 + 3, ranks - 1})
            {
                CheckRank(report, *layout, sample % ranks, name);
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Huge micro-batch counts neither wrap nor pass silently: a rank's compute time and required
 * bandwidth scale with the micro-batches past 2^24 (a micro-batch's FLOPs times the count used to
 * wrap modulo 2^64), and a compute time the report does not count is refused by its key.
 */
class TrafficReportNoWrapTestCase : public TestCase
{
  public:
    TrafficReportNoWrapTestCase()
        : TestCase("2^24 micro-batches and more: compute time scales, too much is refused by key")
    {
    }

  private:
    /**
     * Build the GPT-2 small report with a given number of micro-batches per iteration.
     * @param microBatches the micro-batches (the global batch is 16 times that: dp 4, mb 4).
     * @param preset the model preset.
     * @param report receives it.
     * @return the problem, if any.
     */
    static std::string Build(uint64_t microBatches,
                             const std::string& preset,
                             TrafficReport& report)
    {
        std::string yaml =
            "model:\n  preset: " + preset +
            "\ntraining:\n  global_batch_sequences: " + std::to_string(16 * microBatches) +
            "\n  micro_batch: 4\nlayout:\n  tp: 2\n  pp: 2\n  dp: 4\n"
            "cluster:\n  gpus: 16\n  gpus_per_server: 4\n  gpu: a100\n";
        Scenario scenario;
        std::string problem = Scenario::LoadFromString(yaml, "huge.yaml", scenario);
        if (!problem.empty())
        {
            return problem;
        }
        return scenario.BuildTrafficReport(report);
    }

    void DoRun() override
    {
        TrafficReport one;
        TrafficReport many;
        TrafficReport twice;
        NS_TEST_ASSERT_MSG_EQ(Build(1, "gpt2-small", one), "", "1 micro-batch");
        NS_TEST_ASSERT_MSG_EQ(Build(1ULL << 24, "gpt2-small", many), "", "2^24");
        NS_TEST_ASSERT_MSG_EQ(Build(1ULL << 25, "gpt2-small", twice), "", "2^25");
        for (uint32_t rank : {0U, 8U}) // pipeline stages 0 and 1
        {
            // Compute is the micro-batch's FLOPs times their count over the effective rate: 2^24
            // and 2^25 times the one-micro-batch time (to the ns its Time is rounded to).
            double unit = one.GetComputeTime(rank).GetSeconds();
            NS_TEST_EXPECT_MSG_EQ_TOL(many.GetComputeTime(rank).GetSeconds(),
                                      unit * 16777216.0,
                                      unit * 16777216.0 * 1e-6,
                                      "rank " << rank << ": 2^24 micro-batches");
            NS_TEST_EXPECT_MSG_EQ_TOL(twice.GetComputeTime(rank).GetSeconds(),
                                      unit * 33554432.0,
                                      unit * 33554432.0 * 1e-6,
                                      "rank " << rank << ": 2^25 micro-batches");
            // Per-micro-batch traffic doubles with the count, and so does compute: the
            // bandwidth needed stays within a few percent (the once-per-iteration gradient
            // all-reduce is negligible at this count).
            NS_TEST_EXPECT_MSG_EQ_TOL(twice.GetRequiredBandwidth(rank),
                                      many.GetRequiredBandwidth(rank),
                                      many.GetRequiredBandwidth(rank) * 0.01,
                                      "rank " << rank << ": required bandwidth");
        }
        // Llama 3 405B: a micro-batch of 4 sequences of 8192 tokens is 6 x 4.05e11 x 32768 =
        // 8e16 FLOPs of training, 2e16 on a quarter of the model (tp 2 x pp 2): over 100 s at an
        // A100's 312 TFLOP/s times its MFU. 10^8 micro-batches are over 10^10 s of compute,
        // above the 10^9 s the report counts (ns-3's nanosecond clock holds 9.2e9 s).
        TrafficReport huge;
        std::string problem = Build(100000000, "llama3-405b", huge);
        NS_TEST_EXPECT_MSG_EQ(problem.rfind("training.global_batch_sequences: ", 0),
                              0,
                              "refused by key: " << problem);
    }
};

/**
 * @ingroup llm-fabric-tests
 * Every rank after GetTotals (which computes all ranks, so every kind of group is indexed once for
 * all ranks): each entry's group is the layout's group of the rank (ParallelLayout::GetGroup, or
 * for FSDP HYBRID_SHARD its split, derived here again from the definition), at the rank's place,
 * the group is one list shared by all its members' entries, and the bytes are the oracle's. On
 * layouts using every kind of group (TP, CP ring and Ulysses, EP, DP, DP_CP, EXPERT_DP, hybrid
 * shards and replicas) in several rank orders.
 */
class TrafficReportGroupIndexTestCase : public TrafficReportOracleTestCase
{
  public:
    TrafficReportGroupIndexTestCase()
        : TrafficReportOracleTestCase("Groups indexed for all ranks: the layout's groups, shared "
                                      "by their members, with the oracle's bytes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TransformerSpec> mixtral = MakeModel("mixtral-8x7b");
        // tp 2 x cp 2 x pp 2 x dp 2 = 16 ranks, ep 2 (expert-DP groups of 2 x 2 / 2 = 2), 4 GPUs
        // per server, sequence parallel, ZeRO-1; TP may span servers so that any order fits.
        for (const char* order : {"tp-cp-ep-dp-pp", "pp-dp-ep-cp-tp", "cp-tp-pp-ep-dp"})
        {
            for (auto style : {ParallelLayout::RING_ALLGATHER, ParallelLayout::ULYSSES})
            {
                Ptr<ParallelLayout> layout = MakeLayout(2, 2, 2, 2, 2, 4, order);
                layout->SetAttribute("SequenceParallel", BooleanValue(true));
                layout->SetAttribute("ZeroStage", UintegerValue(1));
                layout->SetAttribute("AllowTpAcrossServers", BooleanValue(true));
                layout->SetCpStyle(style);
                Check(mixtral, MakeConfig(8, 1, 4096), layout, order);
            }
        }
        // FSDP HYBRID_SHARD: tp 1 x cp 2 x pp 2 x dp 4 = 16 ranks, ep 2, 4 GPUs per server.
        // rank = cp + 2 dp + 8 pp: the DP_CP group of stage 0 is ranks 0-7, 4 on each of servers
        // 0 and 1; expert-DP groups (ep = j mod 2, j = cp + 2 dp) {0, 2, 4, 6} and
        // {1, 3, 5, 7}, 2 per server: both split evenly into shards and replica groups.
        Ptr<ParallelLayout> hybrid = MakeLayout(1, 2, 2, 4, 2, 4);
        hybrid->SetFsdp(ParallelLayout::HYBRID_SHARD);
        Check(mixtral, MakeConfig(16, 1, 4096), hybrid, "hybrid shard");
        // The same without sharding, all-reduce HIERARCHICAL: the DP_CP groups are two blocks of
        // 4 ranks on 2 servers (localSize 4), the expert-DP groups two blocks of 2 (localSize 2),
        // so the bytes depend on each indexed group's localSize.
        CollectiveChoices hierarchical;
        hierarchical.Set(CollectiveKind::ALL_REDUCE,
                         CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm::HIERARCHICAL));
        Check(mixtral,
              MakeConfig(16, 1, 4096),
              MakeLayout(1, 2, 2, 4, 2, 4),
              "hierarchical",
              hierarchical);
    }

    /**
     * Build a report, compute every rank, and check every rank.
     * @param model the model.
     * @param config the configuration.
     * @param layout the layout.
     * @param label for the messages.
     * @param algorithms the algorithms.
     */
    void Check(Ptr<TransformerSpec> model,
               Ptr<TrainingConfig> config,
               Ptr<ParallelLayout> layout,
               const std::string& label,
               const CollectiveChoices& algorithms = CollectiveChoices())
    {
        TrafficReport report;
        BuildOrAbort(report, model, config, layout, algorithms);
        report.GetTotals();
        // The first list seen for each group (by what it carries and its members).
        std::map<std::pair<std::string, std::vector<uint32_t>>, const std::vector<uint32_t>*> lists;
        std::vector<std::vector<TrafficEntry>> kept; // keeps the lists alive
        for (uint32_t r = 0; r < report.GetRankCount(); ++r)
        {
            CheckRank(report, *layout, r, label);
            kept.push_back(report.GetRankEntries(r));
            for (const TrafficEntry& entry : kept.back())
            {
                if (entry.strategy == TrafficStrategy::PP)
                {
                    continue; // pairs of stages, made per rank
                }
                const std::vector<uint32_t> expected = ExpectedGroup(*layout, entry, r);
                NS_TEST_EXPECT_MSG_EQ((entry.GetMembers() == expected),
                                      true,
                                      label << " rank " << r << " " << entry.what);
                auto place = std::find(expected.begin(), expected.end(), r) - expected.begin();
                NS_TEST_EXPECT_MSG_EQ(entry.groupRank,
                                      static_cast<uint32_t>(place),
                                      label << " rank " << r << " " << entry.what);
                auto found = lists.emplace(std::make_pair(entry.what, expected), entry.group.get());
                NS_TEST_EXPECT_MSG_EQ(found.first->second,
                                      entry.group.get(),
                                      label << " rank " << r << " " << entry.what
                                            << ": one list per group");
            }
        }
    }

    /**
     * The group of an entry by the definitions of traffic-report.h.
     * @param layout the layout.
     * @param entry a TP, CP, EP or DP entry of @p rank.
     * @param rank the rank.
     * @return its group.
     */
    static std::vector<uint32_t> ExpectedGroup(const ParallelLayout& layout,
                                               const TrafficEntry& entry,
                                               uint32_t rank)
    {
        switch (entry.strategy)
        {
        case TrafficStrategy::TP:
            return layout.GetGroup(ParallelLayout::TP, rank);
        case TrafficStrategy::CP:
            return layout.GetGroup(ParallelLayout::CP, rank);
        case TrafficStrategy::EP:
            return layout.GetGroup(ParallelLayout::EP, rank);
        default:
            break;
        }
        const bool expert = entry.what.rfind("expert", 0) == 0;
        const std::vector<uint32_t> whole = layout.GetGroup(
            expert ? ParallelLayout::EXPERT_DP
                   : (layout.GetCp() > 1 ? ParallelLayout::DP_CP : ParallelLayout::DP),
            rank);
        if (entry.variant != "fsdp-hybrid-shard")
        {
            return whole;
        }
        // Zhao et al. 2023, 3.2.1: the shard is the members on the rank's server, in group order;
        // the replica group the members of the same index on each server, servers in the order of
        // their first member.
        std::vector<uint32_t> shard;
        std::vector<uint32_t> servers;
        for (uint32_t member : whole)
        {
            const uint32_t server = layout.GetServer(member);
            if (server == layout.GetServer(rank))
            {
                shard.push_back(member);
            }
            if (std::find(servers.begin(), servers.end(), server) == servers.end())
            {
                servers.push_back(server);
            }
        }
        if (entry.kind != CollectiveKind::ALL_REDUCE)
        {
            return shard;
        }
        const auto index = std::find(shard.begin(), shard.end(), rank) - shard.begin();
        std::vector<uint32_t> replica;
        for (uint32_t server : servers)
        {
            std::vector<uint32_t> onServer;
            for (uint32_t member : whole)
            {
                if (layout.GetServer(member) == server)
                {
                    onServer.push_back(member);
                }
            }
            replica.push_back(onServer[index]);
        }
        return replica;
    }
};

/**
 * @ingroup llm-fabric-tests
 * The cost rule of the class documentation: a kind of group is resolved rank by rank (a list per
 * rank) until the members so resolved add up to the number of ranks, then indexed once and
 * shared.
 */
class TrafficReportGroupSharingTestCase : public TestCase
{
  public:
    TrafficReportGroupSharingTestCase()
        : TestCase("Groups resolved rank by rank, then shared once they cost the rank count")
    {
    }

  private:
    void DoRun() override
    {
        // GPT-2 small, tp 2 x pp 2 x dp 4 = 16 ranks, rank = tp + 2 dp + 8 pp (4 per server).
        // The DP group of rank 1 is {1, 3, 5, 7} (tp 1, stage 0), its TP group of rank 4 {4, 5}.
        // Build computes ranks 0 and 15: DP members resolved 4 + 4 = 8, TP 2 + 2 = 4.
        TrafficReport report;
        BuildOrAbort(report, MakeModel("gpt2-small"), MakeConfig(16, 1), MakeLayout(2, 1, 2, 4));
        // The group of a rank's all-reduce of a strategy in a phase.
        auto group = [&report](uint32_t rank, TrafficStrategy strategy, TrafficPhase phase) {
            return Find(report, rank, strategy, CollectiveKind::ALL_REDUCE, phase).at(0).group;
        };
        auto dp = [&group](uint32_t rank) {
            return group(rank, TrafficStrategy::DP, TrafficPhase::BACKWARD);
        };
        auto tp = [&group](uint32_t rank) {
            return group(rank, TrafficStrategy::TP, TrafficPhase::FORWARD);
        };
        // Rank 1: DP 12 < 16, its own list. Rank 3: DP 16, its own list, then DP is indexed.
        GroupPartition::Members one = dp(1);
        GroupPartition::Members three = dp(3);
        NS_TEST_EXPECT_MSG_EQ((*one == Ranks(1, 4, 2)), true, "DP group {1, 3, 5, 7}");
        NS_TEST_EXPECT_MSG_EQ((*three == *one), true, "the same group");
        NS_TEST_EXPECT_MSG_NE(three.get(), one.get(), "resolved one by one: two lists");
        // Ranks 5 and 7 read the index: one list.
        GroupPartition::Members five = dp(5);
        GroupPartition::Members seven = dp(7);
        NS_TEST_EXPECT_MSG_EQ(seven.get(), five.get(), "indexed: one list");
        NS_TEST_EXPECT_MSG_NE(five.get(), three.get(), "the index's own list");
        NS_TEST_EXPECT_MSG_EQ((*five == *one), true, "the same group");
        // TP so far: 4 + 2 for each of ranks 1, 3, 5, 7 = 12 < 16. Ranks 4 and 5 (TP group
        // {4, 5}): 14 and 16, each its own list; then TP is indexed and ranks 12 and 13 (group
        // {12, 13}) share one.
        GroupPartition::Members four = tp(4);
        GroupPartition::Members fiveTp = tp(5);
        NS_TEST_EXPECT_MSG_EQ((*four == std::vector<uint32_t>{4, 5}), true, "TP group {4, 5}");
        NS_TEST_EXPECT_MSG_NE(fiveTp.get(), four.get(), "resolved one by one: two lists");
        GroupPartition::Members twelve = tp(12);
        GroupPartition::Members thirteen = tp(13);
        NS_TEST_EXPECT_MSG_EQ((*twelve == std::vector<uint32_t>{12, 13}), true, "TP group");
        NS_TEST_EXPECT_MSG_EQ(thirteen.get(), twelve.get(), "indexed: one list");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The traffic report test suite.
 */
class TrafficReportTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    TrafficReportTestSuite()
        : TestSuite("llm-fabric-traffic-report", Type::UNIT)
    {
        AddTestCase(new TrafficReportDataParallelTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportTensorParallelTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportPipelineTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportGpt3TestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportShardingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportContextParallelTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportExpertParallelTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportTotalsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportNoWrapTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportShippedScenariosTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportGroupIndexTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportGroupSharingTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static TrafficReportTestSuite g_trafficReportTestSuite;

} // namespace tests
} // namespace llmfabric
