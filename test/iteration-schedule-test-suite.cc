/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-volume-oracle.h"
#include "workload-test-util.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/compute-model.h"
#include "ns3/enum.h"
#include "ns3/gpu-spec.h"
#include "ns3/iteration-schedule.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/object.h"
#include "ns3/parallel-layout.h"
#include "ns3/test.h"
#include "ns3/traffic-report.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of IterationSchedule. Pipeline orders and bucket counts are derived by
 * hand in comments from the rules of iteration-schedule.h (Megatron-LM's
 * schedules), never produced by the code under test. Notation: m
 * micro-batches, Pp pipeline stages, v virtual stages, "F3" / "B3" the forward
 * / backward of micro-batch 3, "F3.1" of virtual stage 1.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * Build a schedule, aborting on a problem.
 * @param model the model.
 * @param config the configuration.
 * @param layout the layout.
 * @param rank the rank.
 * @param bucketBytes the bucket size.
 * @return the schedule.
 */
IterationSchedule
BuildOrAbort(Ptr<TransformerSpec> model,
             Ptr<TrainingConfig> config,
             Ptr<ParallelLayout> layout,
             uint32_t rank,
             uint64_t bucketBytes = IterationSchedule::DEFAULT_BUCKET_BYTES)
{
    IterationSchedule schedule;
    std::string problem = IterationSchedule::Build(
        {model, config, layout, layout->GetWorldSize(), CreateObject<GpuSpec>()},
        rank,
        schedule,
        bucketBytes);
    NS_ABORT_MSG_IF(!problem.empty(), problem);
    return schedule;
}

/// A collective: kind, members, message bytes.
using CollectiveKey = std::tuple<int, std::vector<uint32_t>, uint64_t>;

/**
 * @param entries a rank's report entries.
 * @return the multiset of their collectives, weighted by count.
 */
std::map<CollectiveKey, uint64_t>
ReportCollectives(const std::vector<TrafficEntry>& entries)
{
    std::map<CollectiveKey, uint64_t> collectives;
    for (const TrafficEntry& entry : entries)
    {
        collectives[{static_cast<int>(entry.kind), entry.GetMembers(), entry.messageBytes}] +=
            entry.count;
    }
    return collectives;
}

/**
 * @param schedule a schedule.
 * @return the multiset of its collectives, weighted by count; the buckets of one
 * entry are merged into one collective of their summed bytes.
 */
std::map<CollectiveKey, uint64_t>
ScheduleCollectives(const IterationSchedule& schedule)
{
    std::map<CollectiveKey, uint64_t> collectives;
    std::map<uint32_t, CollectiveKey> merged;
    for (const ScheduleOp& op : schedule.GetOps())
    {
        if (op.type != ScheduleOp::COLLECTIVE)
        {
            continue;
        }
        if (op.bucketCount == 0)
        {
            collectives[{static_cast<int>(op.kind), op.members, op.messageBytes}] += op.count;
            continue;
        }
        auto found = merged.find(op.entry);
        if (found == merged.end())
        {
            merged[op.entry] = CollectiveKey{static_cast<int>(op.kind), op.members, 0};
        }
        std::get<2>(merged[op.entry]) += op.messageBytes;
    }
    for (const auto& bucketed : merged)
    {
        collectives[bucketed.second] += 1;
    }
    return collectives;
}

/**
 * @param schedule a schedule.
 * @return its compute steps in order, "F3" / "B3" (v = 1) or "F3.1" (v > 1),
 * the segments of one step counted once, the optimizer step left out.
 */
std::string
ComputeOrder(const IterationSchedule& schedule)
{
    std::ostringstream order;
    const ScheduleOp* previous = nullptr;
    for (const ScheduleOp& op : schedule.GetOps())
    {
        if (op.type != ScheduleOp::COMPUTE || op.phase == TrafficPhase::OPTIMIZER)
        {
            continue;
        }
        if (previous != nullptr && previous->phase == op.phase &&
            previous->microBatch == op.microBatch && previous->virtualStage == op.virtualStage)
        {
            continue; // a further segment of the same step
        }
        order << (previous != nullptr ? " " : "") << (op.phase == TrafficPhase::FORWARD ? "F" : "B")
              << op.microBatch;
        if (schedule.GetVirtualStages() > 1)
        {
            order << "." << op.virtualStage;
        }
        previous = &op;
    }
    return order.str();
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * For every rank of several layouts, the schedule's collectives are exactly the
 * report's, and every dependency points to an earlier op.
 */
class IterationScheduleCollectivesTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IterationScheduleCollectivesTestCase()
        : TestCase("Schedule collectives equal the report's entries")
    {
    }

  private:
    /**
     * Check every rank of one case.
     * @param label the case.
     * @param model the model.
     * @param config the configuration.
     * @param layout the layout.
     */
    void CheckAllRanks(const std::string& label,
                       Ptr<TransformerSpec> model,
                       Ptr<TrainingConfig> config,
                       Ptr<ParallelLayout> layout)
    {
        for (uint32_t r = 0; r < layout->GetWorldSize(); ++r)
        {
            IterationSchedule schedule = BuildOrAbort(model, config, layout, r);
            const std::vector<TrafficEntry> entries = schedule.GetReport().GetRankEntries(r);
            NS_TEST_EXPECT_MSG_EQ((ScheduleCollectives(schedule) == ReportCollectives(entries)),
                                  true,
                                  label << " rank " << r << ": collectives differ\n"
                                        << schedule.Print());
            for (const ScheduleOp& op : schedule.GetOps())
            {
                for (uint32_t d : op.dependsOn)
                {
                    NS_TEST_EXPECT_MSG_LT(d, op.id, label << " rank " << r << " op " << op.id);
                }
                if (op.type == ScheduleOp::COLLECTIVE)
                {
                    NS_TEST_ASSERT_MSG_LT(op.entry, entries.size(), "entry index");
                    NS_TEST_EXPECT_MSG_EQ((op.members == entries[op.entry].GetMembers()),
                                          true,
                                          "members of its entry");
                    NS_TEST_EXPECT_MSG_EQ((op.kind == entries[op.entry].kind),
                                          true,
                                          "kind of its entry");
                }
            }
        }
    }

    void DoRun() override
    {
        // GPT-2 small, tp 2 x pp 2 x dp 4, 8 GPUs per server, m = 64 / 4 = 16:
        // TP all-reduces, PP send/recv and the tied embedding, DP all-reduce.
        Ptr<TransformerSpec> gpt2 = MakeModel("gpt2-small");
        CheckAllRanks("gpt2 tp2 pp2 dp4", gpt2, MakeConfig(64, 1), MakeLayout(2, 1, 2, 4, 1, 8));

        // ZeRO-3: forward and backward all-gathers per micro-batch, bucketed
        // reduce-scatter.
        Ptr<ParallelLayout> zero3 = MakeLayout(2, 1, 1, 4, 1, 8);
        zero3->SetAttribute("ZeroStage", UintegerValue(3));
        CheckAllRanks("gpt2 zero-3", gpt2, MakeConfig(16, 1), zero3);

        // FSDP HYBRID_SHARD over 2 servers (shard groups of 2): reduce-scatter and
        // replica all-reduce buckets.
        Ptr<ParallelLayout> hybrid = MakeLayout(2, 1, 1, 4, 1, 4);
        hybrid->SetAttribute("Fsdp", EnumValue(ParallelLayout::HYBRID_SHARD));
        CheckAllRanks("gpt2 hybrid", gpt2, MakeConfig(16, 1), hybrid);

        // Mixtral, ep 8 over dp 8: EP all-to-alls.
        Ptr<TransformerSpec> mixtral = MakeModel("mixtral-8x7b");
        CheckAllRanks("mixtral ep8",
                      mixtral,
                      MakeConfig(16, 1, 4096),
                      MakeLayout(1, 1, 1, 8, 8, 4));

        // Every strategy at once, interleaved: Mixtral tp 2 x cp 2 x pp 2 (v 2) x dp
        // 2, ep 2, sequence parallel, ZeRO-1 (optimizer all-gather), m = 8 / 2 = 4.
        Ptr<ParallelLayout> all = MakeLayout(2, 2, 2, 2, 2, 4);
        all->SetAttribute("SequenceParallel", BooleanValue(true));
        all->SetAttribute("ZeroStage", UintegerValue(1));
        all->SetAttribute("VirtualStages", UintegerValue(2));
        CheckAllRanks("mixtral all strategies", mixtral, MakeConfig(8, 1, 4096), all);
    }
};

/**
 * @ingroup llm-fabric-tests
 * A test of GPT-2 small's iteration schedules: the model, made afresh for each run, and
 * building its schedules.
 */
class Gpt2ScheduleTestCase : public TestCase
{
  protected:
    /// @param name the test's name.
    explicit Gpt2ScheduleTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    void DoSetup() override
    {
        m_gpt2 = MakeModel("gpt2-small");
    }

    void DoTeardown() override
    {
        m_gpt2 = nullptr;
    }

    /**
     * Build a schedule of GPT-2 small trained in micro-batches of one sequence (MakeConfig),
     * aborting on a problem.
     * @param globalBatch the global batch, in sequences.
     * @param layout the layout.
     * @param rank the rank.
     * @param bucketBytes the bucket size.
     * @return the schedule.
     */
    IterationSchedule Build(uint32_t globalBatch,
                            Ptr<ParallelLayout> layout,
                            uint32_t rank,
                            uint64_t bucketBytes = IterationSchedule::DEFAULT_BUCKET_BYTES) const
    {
        return BuildOrAbort(m_gpt2, MakeConfig(globalBatch, 1), layout, rank, bucketBytes);
    }

    Ptr<TransformerSpec> m_gpt2; //!< GPT-2 small
};

/**
 * @ingroup llm-fabric-tests
 * The 1F1B (PipeDream-Flush) order of the first and last of 4 stages with 8
 * micro-batches, and plain accumulation with Pp = 1.
 */
class IterationSchedule1F1BTestCase : public Gpt2ScheduleTestCase
{
  public:
    /** Create the test case. */
    IterationSchedule1F1BTestCase()
        : Gpt2ScheduleTestCase("1F1B order")
    {
    }

  private:
    void DoRun() override
    {
        // GPT-2 small, pp 4, m = 8. Stage 0: warm-up Pp - 0 - 1 = 3 forwards (F0 F1
        // F2), then 8 - 3 = 5 pairs F(3 + i) B(i), then the cool-down B5 B6 B7.
        // Stage 3: no warm-up, 8 pairs F(i) B(i).
        Ptr<ParallelLayout> layout = MakeLayout(1, 1, 4, 1, 1, 8);
        IterationSchedule first = Build(8, layout, 0);
        NS_TEST_EXPECT_MSG_EQ(first.GetStage(), 0u, "rank 0 is stage 0");
        NS_TEST_EXPECT_MSG_EQ(ComputeOrder(first),
                              "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7",
                              "stage 0");
        IterationSchedule last = Build(8, layout, 3);
        NS_TEST_EXPECT_MSG_EQ(last.GetStage(), 3u, "rank 3 is stage 3");
        NS_TEST_EXPECT_MSG_EQ(ComputeOrder(last),
                              "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7",
                              "stage 3");

        // Stage 0 receives no activations and sends its output after each forward:
        // the op right after "F3"'s compute is the send to rank 1, depending on it.
        const std::vector<ScheduleOp>& ops = first.GetOps();
        for (std::size_t i = 0; i + 1 < ops.size(); ++i)
        {
            if (ops[i].type == ScheduleOp::COMPUTE && ops[i].phase == TrafficPhase::FORWARD)
            {
                const ScheduleOp& send = ops[i + 1];
                NS_TEST_EXPECT_MSG_EQ((send.kind == CollectiveKind::SEND_RECV), true, "send");
                NS_TEST_EXPECT_MSG_EQ((send.members == std::vector<uint32_t>{0, 1}),
                                      true,
                                      "0 -> 1");
                NS_TEST_EXPECT_MSG_EQ(send.microBatch, ops[i].microBatch, "same micro-batch");
                NS_TEST_ASSERT_MSG_EQ(send.dependsOn.size(), 1u, "one dependency");
                NS_TEST_EXPECT_MSG_EQ(send.dependsOn[0], ops[i].id, "on the producing op");
            }
        }
        // Stage 3's backward receives nothing, its forward receives from rank 2
        // before the compute, which depends on the receive.
        for (const ScheduleOp& op : last.GetOps())
        {
            if (op.type == ScheduleOp::COMPUTE && op.phase == TrafficPhase::FORWARD)
            {
                const ScheduleOp& receive = last.GetOps()[op.id - 1];
                NS_TEST_EXPECT_MSG_EQ((receive.members == std::vector<uint32_t>{2, 3}),
                                      true,
                                      "2 -> 3");
                bool depends = false;
                for (uint32_t d : op.dependsOn)
                {
                    depends = depends || d == receive.id;
                }
                NS_TEST_EXPECT_MSG_EQ(depends, true, "forward waits for its input");
            }
        }

        // Pp = 1, m = 4: F0 B0 F1 B1 F2 B2 F3 B3.
        IterationSchedule plain = Build(4, MakeLayout(1, 1, 1, 1, 1, 8), 0);
        NS_TEST_EXPECT_MSG_EQ(ComputeOrder(plain), "F0 B0 F1 B1 F2 B2 F3 B3", "pp 1");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The interleaved 1F1B order, Pp = 2, v = 2, m = 4.
 */
class IterationScheduleInterleavedTestCase : public Gpt2ScheduleTestCase
{
  public:
    /** Create the test case. */
    IterationScheduleInterleavedTestCase()
        : Gpt2ScheduleTestCase("Interleaved 1F1B order")
    {
    }

  private:
    void DoRun() override
    {
        // Pp v = 4. Forward k: chunk (k mod 4) div 2, micro-batch (k div 4) 2 + k
        // mod 2: k = 0..7 give F0.0 F1.0 F0.1 F1.1 F2.0 F3.0 F2.1 F3.1. Backward k:
        // same micro-batch, chunk 1 - (k mod 4) div 2: B0.1 B1.1 B0.0 B1.0 B2.1 B3.1
        // B2.0 B3.0. m = 4 != Pp.
        // Stage 0: warm-up (2 - 0 - 1) 2 + (2 - 1) 2 = 4 forwards, then 4 pairs
        // (forward k = 4..7, backward k = 0..3), then backwards k = 4..7.
        // Stage 1: warm-up 0 + 2 = 2, then 6 pairs (forwards k = 2..7, backwards
        // 0..5), then backwards 6, 7.
        Ptr<ParallelLayout> layout = MakeLayout(1, 1, 2, 1, 1, 8);
        layout->SetAttribute("VirtualStages", UintegerValue(2));
        NS_TEST_EXPECT_MSG_EQ(ComputeOrder(Build(4, layout, 0)),
                              "F0.0 F1.0 F0.1 F1.1 F2.0 B0.1 F3.0 B1.1 F2.1 B0.0 F3.1 B1.0 "
                              "B2.1 B3.1 B2.0 B3.0",
                              "stage 0");
        NS_TEST_EXPECT_MSG_EQ(ComputeOrder(Build(4, layout, 1)),
                              "F0.0 F1.0 F0.1 B0.1 F1.1 B1.1 F2.0 B0.0 F3.0 B1.0 F2.1 B2.1 "
                              "F3.1 B3.1 B2.0 B3.0",
                              "stage 1");

        // m = 3, not a multiple of Pp: refused.
        IterationSchedule schedule;
        std::string problem =
            IterationSchedule::Build({m_gpt2, MakeConfig(3, 1), layout, 2, CreateObject<GpuSpec>()},
                                     0,
                                     schedule);
        NS_TEST_EXPECT_MSG_NE(problem, "", "m not a multiple of Pp");
        NS_TEST_EXPECT_MSG_EQ(schedule.GetOps().size(), 0u, "empty on a problem");
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-2 tp 2 x pp 2 x dp 4: the DP gradient buckets, their overlap with the
 * last backward, and the compute time.
 */
class IterationScheduleBucketsTestCase : public Gpt2ScheduleTestCase
{
  public:
    /** Create the test case. */
    IterationScheduleBucketsTestCase()
        : Gpt2ScheduleTestCase("DP gradient buckets and compute time")
    {
    }

  private:
    void DoRun() override
    {
        // Stage 0 holds 81,911,040 parameters (traffic-report-test-suite.cc),
        // 40,955,520 per TP rank, 81,911,040 bytes of bf16 gradients; buckets of 25
        // MiB = 26,214,400: ceil(3.12) = 4, three of 26,214,400 and one of
        // 81,911,040 - 78,643,200 = 3,267,840. Stage 1: 81,126,144 parameters,
        // 81,126,144 bytes per TP rank: 4 buckets, the last 2,482,944.
        Ptr<ParallelLayout> layout = MakeLayout(2, 1, 2, 4, 1, 8);
        const uint64_t lastBucket[] = {3267840, 2482944};
        Ptr<GpuSpec> gpu = CreateObject<GpuSpec>();
        for (uint32_t rank : {0u, 15u})
        {
            IterationSchedule schedule = Build(64, layout, rank);
            const uint32_t stage = schedule.GetStage();
            NS_TEST_EXPECT_MSG_EQ(stage, (rank == 0 ? 0u : 1u), "stage");
            std::vector<const ScheduleOp*> buckets;
            for (const ScheduleOp& op : schedule.GetOps())
            {
                if (op.bucketCount > 0)
                {
                    buckets.push_back(&op);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(buckets.size(), 4u, "ceil(S / 25 MiB)");
            uint64_t total = 0;
            for (uint32_t j = 0; j < 4; ++j)
            {
                NS_TEST_EXPECT_MSG_EQ((buckets[j]->kind == CollectiveKind::ALL_REDUCE),
                                      true,
                                      "all-reduce");
                NS_TEST_EXPECT_MSG_EQ(buckets[j]->bucket, j, "in order");
                NS_TEST_EXPECT_MSG_EQ(buckets[j]->bucketCount, 4u, "of 4");
                NS_TEST_EXPECT_MSG_EQ(buckets[j]->messageBytes,
                                      (j < 3 ? uint64_t{26214400} : lastBucket[stage]),
                                      "bucket bytes");
                NS_TEST_EXPECT_MSG_EQ(buckets[j]->microBatch, 15u, "last micro-batch");
                total += buckets[j]->messageBytes;
            }
            // GetRankEntries returns a computed vector: keep it while pointing into it.
            const std::vector<TrafficEntry> entries = schedule.GetReport().GetRankEntries(rank);
            const TrafficEntry* reduction = nullptr;
            for (const TrafficEntry& entry : entries)
            {
                if (entry.strategy == TrafficStrategy::DP)
                {
                    reduction = &entry;
                }
            }
            NS_TEST_ASSERT_MSG_NE(reduction, nullptr, "DP entry");
            NS_TEST_EXPECT_MSG_EQ(total, reduction->messageBytes, "buckets add up to the entry");

            // Overlap: the first three buckets are each followed by backward compute
            // of the last micro-batch that does not depend on them.
            const std::vector<ScheduleOp>& ops = schedule.GetOps();
            for (uint32_t j = 0; j < 3; ++j)
            {
                bool overlapped = false;
                for (uint32_t i = buckets[j]->id + 1; i < ops.size(); ++i)
                {
                    overlapped = overlapped || (ops[i].type == ScheduleOp::COMPUTE &&
                                                ops[i].phase == TrafficPhase::BACKWARD &&
                                                ops[i].microBatch == 15u);
                }
                NS_TEST_EXPECT_MSG_EQ(overlapped, true, "bucket " << j << " overlaps backward");
            }

            // Compute time: m = 16 times the stage's forward and backward (layers 0-5,
            // or 6-11 with the LM head), s = 1,024, tp 2.
            const ComputeModel::PassFlops pass =
                ComputeModel::GetStageFlops(*m_gpt2,
                                            6 * stage,
                                            6,
                                            stage == 1,
                                            {1, 1024, TrainingConfig::NONE, 2});
            const uint64_t flops = pass.forward + pass.backward;
            NS_TEST_EXPECT_MSG_EQ(schedule.GetComputeTime(),
                                  ComputeModel::GetDuration(16 * flops, *gpu),
                                  "compute time");
            NS_TEST_EXPECT_MSG_EQ(schedule.GetComputeTime(),
                                  schedule.GetReport().GetComputeTime(rank),
                                  "the report's compute time");
        }

        // Smaller buckets: 10,000,000 bytes give ceil(81,911,040 / 10^7) = 9 on
        // stage 0.
        IterationSchedule small = Build(64, layout, 0, 10000000);
        uint32_t count = 0;
        for (const ScheduleOp& op : small.GetOps())
        {
            count += op.bucketCount > 0 ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(count, 9u, "9 buckets");
    }
};

/**
 * @ingroup llm-fabric-tests
 * ZeRO-3 prefetch and ZeRO-1 optimizer all-gather placement; Print and ToJson.
 */
class IterationScheduleShardingTestCase : public Gpt2ScheduleTestCase
{
  public:
    /** Create the test case. */
    IterationScheduleShardingTestCase()
        : Gpt2ScheduleTestCase("ZeRO placement, Print and ToJson")
    {
    }

  private:
    void DoRun() override
    {
        // GPT-2, dp 4, m = 16 / 4 = 4.
        Ptr<ParallelLayout> layout = MakeLayout(1, 1, 1, 4, 1, 8);
        CheckZero3Prefetch(layout);
        CheckZero1GatherAndOutput(layout);
    }

    /**
     * ZeRO-3: the all-gather of each compute op is issued before the previous compute op, and
     * the compute op depends on it.
     * @param layout the layout (its ZeroStage is set to 3).
     */
    void CheckZero3Prefetch(Ptr<ParallelLayout> layout)
    {
        layout->SetAttribute("ZeroStage", UintegerValue(3));
        IterationSchedule schedule = Build(16, layout, 1);
        const std::vector<ScheduleOp>& ops = schedule.GetOps();
        uint32_t gathers = 0;
        for (const ScheduleOp& op : ops)
        {
            if (op.kind != CollectiveKind::ALL_GATHER || op.type != ScheduleOp::COLLECTIVE)
            {
                continue;
            }
            ++gathers;
            // Its consumer: the compute op of the same phase and micro-batch.
            uint32_t consumer = ScheduleOp::NONE;
            uint32_t computesBetween = 0;
            for (uint32_t i = op.id + 1; i < ops.size(); ++i)
            {
                if (ops[i].type != ScheduleOp::COMPUTE)
                {
                    continue;
                }
                if (ops[i].phase == op.phase && ops[i].microBatch == op.microBatch)
                {
                    consumer = i;
                    break;
                }
                ++computesBetween;
            }
            NS_TEST_ASSERT_MSG_NE(consumer, ScheduleOp::NONE, "a consumer");
            NS_TEST_EXPECT_MSG_LT(computesBetween, 2u, "at most one step ahead");
            bool depends = false;
            for (uint32_t d : ops[consumer].dependsOn)
            {
                depends = depends || d == op.id;
            }
            NS_TEST_EXPECT_MSG_EQ(depends, true, "compute waits for its parameters");
        }
        NS_TEST_EXPECT_MSG_EQ(gathers, 8u, "m forward + m backward");
        // Order F0 B0 F1 ...: the first two ops gather the parameters of F0 and
        // (prefetched) B0.
        NS_TEST_EXPECT_MSG_EQ((ops[0].kind == CollectiveKind::ALL_GATHER), true, "F0 gather");
        NS_TEST_EXPECT_MSG_EQ((ops[1].kind == CollectiveKind::ALL_GATHER), true, "B0 prefetch");
        NS_TEST_EXPECT_MSG_EQ((ops[1].phase == TrafficPhase::BACKWARD), true, "B0's");
        NS_TEST_EXPECT_MSG_EQ(ops[1].microBatch, 0u, "B0's");
    }

    /**
     * ZeRO-1: the last op is the parameter all-gather after the optimizer step, which waits for
     * the last reduce-scatter bucket; the schedule's Print and ToJson.
     * @param layout the layout (its ZeroStage is set to 1).
     */
    void CheckZero1GatherAndOutput(Ptr<ParallelLayout> layout)
    {
        layout->SetAttribute("ZeroStage", UintegerValue(1));
        IterationSchedule zero1 = Build(16, layout, 1);
        const std::vector<ScheduleOp>& z = zero1.GetOps();
        NS_TEST_ASSERT_MSG_GT(z.size(), 2u, "ops");
        const ScheduleOp& gather = z.back();
        const ScheduleOp& step = z[z.size() - 2];
        NS_TEST_EXPECT_MSG_EQ((gather.kind == CollectiveKind::ALL_GATHER), true, "all-gather");
        NS_TEST_EXPECT_MSG_EQ((gather.phase == TrafficPhase::OPTIMIZER), true, "optimizer");
        NS_TEST_EXPECT_MSG_EQ(step.name, "optimizer step", "after the step");
        NS_TEST_EXPECT_MSG_EQ(gather.dependsOn[0], step.id, "depends on the step");
        bool afterReduction = false;
        for (uint32_t d : step.dependsOn)
        {
            afterReduction = afterReduction || (z[d].kind == CollectiveKind::REDUCE_SCATTER &&
                                                z[d].bucket + 1 == z[d].bucketCount);
        }
        NS_TEST_EXPECT_MSG_EQ(afterReduction, true, "step after the last bucket");

        // Print: one line per op. ToJson: balanced brackets outside strings, and
        // every op id.
        std::string text = zero1.Print();
        uint32_t lines = 0;
        for (char c : text)
        {
            lines += c == '\n' ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(lines, z.size(), "one line per op");
        std::string json = zero1.ToJson();
        int depth = 0;
        bool inString = false;
        bool balanced = true;
        for (std::size_t i = 0; i < json.size(); ++i)
        {
            char c = json[i];
            if (inString)
            {
                if (c == '\\')
                {
                    ++i;
                }
                else if (c == '"')
                {
                    inString = false;
                }
                continue;
            }
            if (c == '"')
            {
                inString = true;
            }
            else if (c == '{' || c == '[')
            {
                ++depth;
            }
            else if (c == '}' || c == ']')
            {
                --depth;
                balanced = balanced && depth >= 0;
            }
        }
        NS_TEST_EXPECT_MSG_EQ((balanced && depth == 0 && !inString), true, "balanced JSON");
        for (const ScheduleOp& op : z)
        {
            std::string id = "{\"id\":" + std::to_string(op.id) + ",";
            NS_TEST_EXPECT_MSG_NE(json.find(id), std::string::npos, "op " << op.id);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The iteration schedule test suite.
 */
class IterationScheduleTestSuite : public TestSuite
{
  public:
    /** Create the suite. */
    IterationScheduleTestSuite()
        : TestSuite("llm-fabric-iteration-schedule", Type::UNIT)
    {
        AddTestCase(new IterationScheduleCollectivesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IterationSchedule1F1BTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IterationScheduleInterleavedTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IterationScheduleBucketsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IterationScheduleShardingTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance.
static IterationScheduleTestSuite g_iterationScheduleTestSuite;

} // namespace tests
} // namespace llmfabric
