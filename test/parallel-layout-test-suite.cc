/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-test-util.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/object.h"
#include "ns3/parallel-layout.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of ParallelLayout (consistency checks, rank coordinates, communication groups, servers)
 * and TrainingConfig (gradient accumulation steps). Every expected rank list below is derived by
 * hand in a comment from the RankOrder definition in parallel-layout.h, never produced by the
 * code under test.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param ranks some ranks.
 * @return them as "{a, b, c}", for messages.
 */
std::string
Show(const std::vector<uint32_t>& ranks)
{
    std::string text = "{";
    for (std::size_t i = 0; i < ranks.size(); ++i)
    {
        text += (i > 0 ? ", " : "") + std::to_string(ranks[i]);
    }
    return text + "}";
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Check() reports each inconsistent layout with a message naming the values.
 */
class ParallelLayoutCheckTestCase : public TestCase
{
  public:
    /** Create the test case. */
    ParallelLayoutCheckTestCase()
        : TestCase("Check() reports inconsistent layouts")
    {
    }

  private:
    /**
     * Check a layout and compare the message.
     * @param layout the layout.
     * @param model the model.
     * @param gpus the GPU count.
     * @param expected the expected message ("" if consistent).
     * @param what what is checked, for the failure message.
     */
    void Expect(Ptr<ParallelLayout> layout,
                Ptr<TransformerSpec> model,
                uint32_t gpus,
                const std::string& expected,
                const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(layout->Check(*model, gpus), expected, what);
    }

    /// Heads, KV heads and layers against the degrees.
    void CheckShapes()
    {
        // 8 x 1 x 8 x 16 = 1024; 96 heads / 8; 96 layers / 8; TP groups of 8 consecutive ranks.
        Expect(MakeLayout(8, 1, 8, 16), m_gpt3, 1024, "", "GPT-3 on 1024 GPUs");

        Expect(MakeLayout(8, 1, 4, 3),
               m_gpt3,
               128,
               "tp 8 x cp 1 x pp 4 x dp 3 = 96 != 128 GPUs",
               "product");

        // 96 % 5 = 1.
        Expect(MakeLayout(5, 1, 1, 1), m_gpt3, 5, "Heads (96) is not divisible by Tp (5)", "heads");

        // A model with 12 heads and 6 KV heads: 12 % 4 = 0, but 6 >= 4 and 6 % 4 = 2.
        Ptr<TransformerSpec> gqa = MakeModel("gpt2-small");
        gqa->SetAttribute("KvHeads", UintegerValue(6));
        Expect(MakeLayout(4, 1, 1, 1), gqa, 4, "KvHeads (6) is not divisible by Tp (4)", "KV");
        // 3 KV heads (12 % 3 = 0) with tp 4: 3 < 4 and 4 % 3 = 1.
        gqa->SetAttribute("KvHeads", UintegerValue(3));
        Expect(MakeLayout(4, 1, 1, 1),
               gqa,
               4,
               "Tp (4) is not a multiple of KvHeads (3): KV heads cannot be replicated evenly",
               "KV replication");
        // GQA rule: Llama 3 70B's 8 KV heads over tp 16 (64 heads / 16 = 4 per rank) are each
        // replicated on 16 / 8 = 2 ranks; allowed (here across servers, which is allowed).
        Ptr<ParallelLayout> wide = MakeLayout(16, 1, 1, 1);
        wide->SetAttribute("AllowTpAcrossServers", BooleanValue(true));
        Expect(wide, m_llama70, 16, "", "KV heads replicated when tp > KvHeads");

        // 96 % 5 = 1; with 8 x 5 virtual stages, 96 % 40 = 16; 8 x 12 = 96 is fine.
        Expect(MakeLayout(8, 1, 5, 1),
               m_gpt3,
               40,
               "Layers (96) is not divisible by Pp (5) x VirtualStages (1) = 5",
               "layers");
        Ptr<ParallelLayout> interleaved = MakeLayout(8, 1, 8, 16);
        interleaved->SetAttribute("VirtualStages", UintegerValue(5));
        Expect(interleaved,
               m_gpt3,
               1024,
               "Layers (96) is not divisible by Pp (8) x VirtualStages (5) = 40",
               "interleaved layers");
        interleaved->SetAttribute("VirtualStages", UintegerValue(12));
        Expect(interleaved, m_gpt3, 1024, "", "12 virtual stages of one layer each");
        Ptr<ParallelLayout> flat = MakeLayout(8, 1, 1, 8);
        flat->SetAttribute("VirtualStages", UintegerValue(2));
        Expect(flat, m_gpt3, 64, "VirtualStages (2) needs Pp > 1", "virtual stages without pp");
    }

    /// Expert parallelism.
    void CheckExperts()
    {
        Expect(MakeLayout(8, 1, 8, 16, 8),
               m_gpt3,
               1024,
               "Ep (8) > 1 but the model is dense (Experts 0)",
               "ep on a dense model");
        // 1 x 1 x 4 x 16 = 64; 16 does not divide 8 experts.
        Expect(MakeLayout(1, 1, 4, 16, 16),
               m_mixtral,
               64,
               "Ep (16) does not divide Experts (8)",
               "ep vs experts");
        // 2 x 1 x 4 x 4 = 32; ep 8 does not divide dp x cp = 4.
        Expect(MakeLayout(2, 1, 4, 4, 8),
               m_mixtral,
               32,
               "Ep (8) does not divide dp 4 x cp 1 = 4",
               "ep vs dp x cp");
        // With cp 2 and dp 4, dp x cp = 8 and ep 8 is carved out of it: 1 x 2 x 4 x 4 = 32.
        Expect(MakeLayout(1, 2, 4, 4, 8), m_mixtral, 32, "", "ep carved out of dp x cp");
    }

    /// Servers, rank orders, ZeRO and FSDP.
    void CheckPlacement()
    {
        // 16 x 1 x 8 x 8 = 1024, but a TP group of 16 needs two 8-GPU servers.
        Ptr<ParallelLayout> tp16 = MakeLayout(16, 1, 8, 8);
        Expect(tp16,
               m_gpt3,
               1024,
               "Tp (16) exceeds GpusPerServer (8) and AllowTpAcrossServers is false",
               "tp larger than a server");
        tp16->SetAttribute("AllowTpAcrossServers", BooleanValue(true));
        Expect(tp16, m_gpt3, 1024, "", "tp across servers allowed");

        // With "dp-tp-cp-ep-pp", rank = dp + 16 x (tp + 8 x pp). Ranks 0 to 15 have tp 0 and are
        // the first of their TP groups; rank 16 (dp 0, tp 1) is in the TP group of rank 0, on
        // server 16 / 8 = 2 while rank 0 is on server 0: the first rank found is 16.
        Expect(MakeLayout(8, 1, 8, 16, 1, 8, "dp-tp-cp-ep-pp"),
               m_gpt3,
               1024,
               "the TP group of rank 16 spans servers (RankOrder 'dp-tp-cp-ep-pp', GpusPerServer "
               "8) and AllowTpAcrossServers is false",
               "strided TP group");

        Ptr<ParallelLayout> zero = MakeLayout(8, 1, 8, 16);
        zero->SetAttribute("ZeroStage", UintegerValue(3));
        Expect(zero, m_gpt3, 1024, "", "ZeRO 3");
        zero->SetAttribute("ZeroStage", UintegerValue(4));
        Expect(zero, m_gpt3, 1024, "ZeroStage (4) is not 0, 1, 2 or 3", "ZeRO 4");
        zero->SetAttribute("ZeroStage", UintegerValue(1));
        zero->SetAttribute("Fsdp", StringValue("FullShard"));
        Expect(zero,
               m_gpt3,
               1024,
               "Fsdp (FullShard) and ZeroStage (1) are both set: use one of them",
               "FSDP and ZeRO");
        zero->SetAttribute("ZeroStage", UintegerValue(0));
        Expect(zero, m_gpt3, 1024, "", "FSDP alone");

        const std::string notPermutation = "is not a permutation of tp, cp, ep, dp, pp: ";
        Expect(MakeLayout(8, 1, 8, 16, 1, 8, "tp-dp-pp"),
               m_gpt3,
               1024,
               "RankOrder 'tp-dp-pp' " + notPermutation + "'cp' is missing",
               "missing dimensions");
        Expect(MakeLayout(8, 1, 8, 16, 1, 8, "tp-cp-ep-dp-dp"),
               m_gpt3,
               1024,
               "RankOrder 'tp-cp-ep-dp-dp' " + notPermutation + "'dp' appears twice",
               "repeated dimension");
        Expect(MakeLayout(8, 1, 8, 16, 1, 8, "tp-cp-ex-dp-pp"),
               m_gpt3,
               1024,
               "RankOrder 'tp-cp-ex-dp-pp' " + notPermutation + "'ex' is not one of them",
               "unknown dimension");
        Expect(MakeLayout(8, 1, 8, 16, 1, 8, "TP-cp-ep-dp-pp"),
               m_gpt3,
               1024,
               "RankOrder 'TP-cp-ep-dp-pp' " + notPermutation + "'TP' is not one of them",
               "names are lower case");
        Expect(MakeLayout(8, 1, 8, 16, 1, 8, "tp-cp-ep-dp-pp-"),
               m_gpt3,
               1024,
               "RankOrder 'tp-cp-ep-dp-pp-' " + notPermutation + "'' is not one of them",
               "trailing separator");
        Expect(MakeLayout(8, 1, 8, 16, 1, 8, ""),
               m_gpt3,
               1024,
               "RankOrder '' " + notPermutation + "'' is not one of them",
               "empty order");
        // Megatron's tp-pp-dp mapping is a valid order.
        Expect(MakeLayout(8, 1, 8, 16, 1, 8, "tp-cp-ep-pp-dp"), m_gpt3, 1024, "", "tp-pp-dp order");
    }

    /// Sequence and context parallelism, and an inconsistent model.
    void CheckSequence()
    {
        // Sequence parallelism splits along the sequence over the TP group: needs tp > 1.
        Ptr<ParallelLayout> sp = MakeLayout(1, 1, 8, 128);
        sp->SetAttribute("SequenceParallel", BooleanValue(true));
        Expect(sp, m_gpt3, 1024, "SequenceParallel needs Tp > 1 (Tp 1)", "SP without TP");
        sp = MakeLayout(8, 1, 8, 16);
        sp->SetAttribute("SequenceParallel", BooleanValue(true));
        Expect(sp, m_gpt3, 1024, "", "SP with TP 8");

        // Llama 3 8B with tp 2 x cp 3 = 6 GPUs: 32 / 2 = 16 heads per TP rank, 16 % 3 = 1.
        Ptr<ParallelLayout> ulysses = MakeLayout(2, 3, 1, 1);
        Expect(ulysses, m_llama8, 6, "", "ring CP does not split heads");
        ulysses->SetAttribute("CpStyle", StringValue("Ulysses"));
        Expect(ulysses,
               m_llama8,
               6,
               "Ulysses Cp (3) does not divide the 16 heads per TP rank (Heads 32 / Tp 2)",
               "Ulysses");
        // cp 4: 16 % 4 = 0.
        Expect(MakeLayout(2, 4, 1, 1), m_llama8, 8, "", "Ulysses cp 4 (default ring)");
        Ptr<ParallelLayout> ulysses4 = MakeLayout(2, 4, 1, 1);
        ulysses4->SetCpStyle(ParallelLayout::ULYSSES);
        Expect(ulysses4, m_llama8, 8, "", "Ulysses cp 4");

        Ptr<TransformerSpec> broken = MakeModel("gpt2-small");
        broken->SetAttribute("HiddenSize", UintegerValue(770));
        Expect(MakeLayout(1, 1, 1, 1),
               broken,
               1,
               "model: HiddenSize (770) is not divisible by Heads (12)",
               "inconsistent model");
    }

    void DoRun() override
    {
        // GPT-3 175B: 96 layers, 96 heads, 96 KV heads, dense.
        m_gpt3 = MakeModel("gpt3-175b");
        // Llama 3 70B: 80 layers, 64 heads, 8 KV heads, dense.
        m_llama70 = MakeModel("llama3-70b");
        // Llama 3 8B: 32 layers, 32 heads, 8 KV heads, dense.
        m_llama8 = MakeModel("llama3-8b");
        // Mixtral 8x7B: 32 layers, 32 heads, 8 KV heads, 8 experts.
        m_mixtral = MakeModel("mixtral-8x7b");
        CheckShapes();
        CheckExperts();
        CheckPlacement();
        CheckSequence();
    }

    Ptr<TransformerSpec> m_gpt3;    //!< GPT-3 175B.
    Ptr<TransformerSpec> m_llama70; //!< Llama 3 70B.
    Ptr<TransformerSpec> m_llama8;  //!< Llama 3 8B.
    Ptr<TransformerSpec> m_mixtral; //!< Mixtral 8x7B.
};

/**
 * @ingroup llm-fabric-tests
 * Coordinates and groups of tp 2 x pp 2 x dp 4 on 16 GPUs, in two rank orders.
 */
class ParallelLayoutSmallGroupsTestCase : public TestCase
{
  public:
    /** Create the test case. */
    ParallelLayoutSmallGroupsTestCase()
        : TestCase("Groups of tp 2 x pp 2 x dp 4 follow RankOrder")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TransformerSpec> model = MakeModel("gpt2-small"); // 12 heads, 12 layers
        Ptr<ParallelLayout> layout = MakeLayout(2, 1, 2, 4);
        NS_TEST_ASSERT_MSG_EQ(layout->Check(*model, 16), "", "consistent");
        NS_TEST_ASSERT_MSG_EQ(layout->GetWorldSize(), 16u, "world size");

        // "tp-cp-ep-dp-pp", ep skipped: strides tp 1, cp 2 (size 1), dp 2 x 1 = 2, pp 2 x 4 = 8:
        //   rank = tp + 2 x dp + 8 x pp.
        // Rank 5 = 1 + 2 x 2 + 8 x 0: tp 1, cp 0, dp 2, pp 0.
        //   TP (tp varies): 0 + 4 + 0, 1 + 4 + 0 = {4, 5}
        //   DP (dp varies): 1 + 2 x {0, 1, 2, 3} = {1, 3, 5, 7}
        //   PP (pp varies): 5 + 8 x {0, 1} = {5, 13}
        //   CP, EP (size 1): {5}; DP_CP and EXPERT_DP (ep 1: all dp x cp ranks) = DP.
        ParallelLayout::RankCoordinates c = layout->GetCoordinates(5);
        NS_TEST_EXPECT_MSG_EQ(c.tp, 1u, "rank 5 tp");
        NS_TEST_EXPECT_MSG_EQ(c.cp, 0u, "rank 5 cp");
        NS_TEST_EXPECT_MSG_EQ(c.dp, 2u, "rank 5 dp");
        NS_TEST_EXPECT_MSG_EQ(c.pp, 0u, "rank 5 pp");
        NS_TEST_EXPECT_MSG_EQ(c.ep, 0u, "rank 5 ep");
        NS_TEST_EXPECT_MSG_EQ(c.expertDp, 2u, "rank 5 expert dp (j = dp = 2, ep 1)");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::TP, 5)), "{4, 5}", "TP of 5");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::DP, 5)),
                              "{1, 3, 5, 7}",
                              "DP of 5");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::PP, 5)), "{5, 13}", "PP of 5");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::CP, 5)), "{5}", "CP of 5");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::EP, 5)), "{5}", "EP of 5");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::DP_CP, 5)),
                              "{1, 3, 5, 7}",
                              "DP_CP of 5");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::EXPERT_DP, 5)),
                              "{1, 3, 5, 7}",
                              "EXPERT_DP of 5");
        // Rank 14 = 0 + 2 x 3 + 8 x 1: tp 0, dp 3, pp 1.
        //   TP {14, 15}; DP 0 + 8 + 2 x {0..3} = {8, 10, 12, 14}; PP 6 + 8 x {0, 1} = {6, 14}.
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::TP, 14)),
                              "{14, 15}",
                              "TP of 14");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::DP, 14)),
                              "{8, 10, 12, 14}",
                              "DP of 14");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::PP, 14)),
                              "{6, 14}",
                              "PP of 14");

        // Servers of 8 GPUs: ranks 0-7 on server 0, 8-15 on server 1.
        NS_TEST_EXPECT_MSG_EQ(layout->GetServer(7), 0u, "server of 7");
        NS_TEST_EXPECT_MSG_EQ(layout->GetServer(8), 1u, "server of 8");
        NS_TEST_EXPECT_MSG_EQ(layout->IsGroupIntraServer(ParallelLayout::TP, 5), true, "TP 5");
        NS_TEST_EXPECT_MSG_EQ(layout->IsGroupIntraServer(ParallelLayout::DP, 5), true, "DP 5");
        NS_TEST_EXPECT_MSG_EQ(layout->IsGroupIntraServer(ParallelLayout::PP, 5), false, "PP 5");

        for (uint32_t rank = 0; rank < 16; ++rank)
        {
            NS_TEST_EXPECT_MSG_EQ(layout->GetRank(layout->GetCoordinates(rank)),
                                  rank,
                                  "round trip of rank " << rank);
        }

        // "tp-cp-ep-pp-dp" (Megatron's tp-pp-dp mapping): rank = tp + 2 x pp + 4 x dp.
        // Rank 5 = 1 + 2 x 0 + 4 x 1: tp 1, pp 0, dp 1.
        //   TP {4, 5}; PP 1 + 4 + 2 x {0, 1} = {5, 7}; DP 1 + 4 x {0..3} = {1, 5, 9, 13}.
        layout->SetAttribute("RankOrder", StringValue("tp-cp-ep-pp-dp"));
        c = layout->GetCoordinates(5);
        NS_TEST_EXPECT_MSG_EQ(c.dp, 1u, "rank 5 dp, tp-pp-dp");
        NS_TEST_EXPECT_MSG_EQ(c.pp, 0u, "rank 5 pp, tp-pp-dp");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::TP, 5)),
                              "{4, 5}",
                              "TP of 5, tp-pp-dp");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::PP, 5)),
                              "{5, 7}",
                              "PP of 5, tp-pp-dp");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::DP, 5)),
                              "{1, 5, 9, 13}",
                              "DP of 5, tp-pp-dp");
        for (uint32_t rank = 0; rank < 16; ++rank)
        {
            NS_TEST_EXPECT_MSG_EQ(layout->GetRank(layout->GetCoordinates(rank)),
                                  rank,
                                  "round trip of rank " << rank << ", tp-pp-dp");
        }

        // tp 2 x cp 2 x pp 2 x dp 2 on 16 GPUs, "tp-cp-ep-dp-pp":
        //   rank = tp + 2 x cp + 4 x dp + 8 x pp.
        // Rank 11 = 1 + 2 x 1 + 4 x 0 + 8 x 1: tp 1, cp 1, dp 0, pp 1.
        //   CP 1 + 8 + 2 x {0, 1} = {9, 11}; DP 1 + 2 + 8 + 4 x {0, 1} = {11, 15};
        //   PP 3 + 8 x {0, 1} = {3, 11}; DP_CP 1 + 8 + {0, 2, 4, 6} = {9, 11, 13, 15}.
        Ptr<ParallelLayout> cp = MakeLayout(2, 2, 2, 2);
        NS_TEST_ASSERT_MSG_EQ(cp->Check(*model, 16), "", "cp layout consistent");
        NS_TEST_EXPECT_MSG_EQ(Show(cp->GetGroup(ParallelLayout::CP, 11)), "{9, 11}", "CP of 11");
        NS_TEST_EXPECT_MSG_EQ(Show(cp->GetGroup(ParallelLayout::DP, 11)), "{11, 15}", "DP of 11");
        NS_TEST_EXPECT_MSG_EQ(Show(cp->GetGroup(ParallelLayout::PP, 11)), "{3, 11}", "PP of 11");
        NS_TEST_EXPECT_MSG_EQ(Show(cp->GetGroup(ParallelLayout::DP_CP, 11)),
                              "{9, 11, 13, 15}",
                              "DP_CP of 11");
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-3 175B on 1024 GPUs (tp 8 x pp 8 x dp 16, 8 GPUs per server): TP groups inside servers,
 * PP and DP groups across servers.
 */
class ParallelLayoutGpt3TestCase : public TestCase
{
  public:
    /** Create the test case. */
    ParallelLayoutGpt3TestCase()
        : TestCase("GPT-3 175B on 1024 GPUs: TP inside servers, PP and DP across")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TransformerSpec> model = MakeModel("gpt3-175b");
        Ptr<ParallelLayout> layout = MakeLayout(8, 1, 8, 16);
        NS_TEST_ASSERT_MSG_EQ(layout->Check(*model, 1024), "", "consistent");

        // rank = tp + 8 x dp + 128 x pp. Rank 1000 = 0 + 8 x 13 + 128 x 7: tp 0, dp 13, pp 7.
        //   TP 1000 + {0..7}; PP 104 + 128 x {0..7} = {104, 232, ..., 1000};
        //   DP 896 + 8 x {0..15} = {896, 904, ..., 1016}.
        ParallelLayout::RankCoordinates c = layout->GetCoordinates(1000);
        NS_TEST_EXPECT_MSG_EQ(c.tp, 0u, "rank 1000 tp");
        NS_TEST_EXPECT_MSG_EQ(c.dp, 13u, "rank 1000 dp");
        NS_TEST_EXPECT_MSG_EQ(c.pp, 7u, "rank 1000 pp");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::TP, 1000)),
                              Show(Ranks(1000, 8, 1)),
                              "TP of 1000");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::PP, 1000)),
                              Show(Ranks(104, 8, 128)),
                              "PP of 1000");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::DP, 1000)),
                              Show(Ranks(896, 16, 8)),
                              "DP of 1000");

        for (uint32_t rank = 0; rank < 1024; ++rank)
        {
            NS_TEST_EXPECT_MSG_EQ(layout->GetRank(layout->GetCoordinates(rank)),
                                  rank,
                                  "round trip of rank " << rank);
            // A TP group is the 8 ranks of one server; a DP group has stride 8 (one rank per
            // server) and a PP group stride 128.
            NS_TEST_EXPECT_MSG_EQ(layout->IsGroupIntraServer(ParallelLayout::TP, rank),
                                  true,
                                  "TP group of rank " << rank);
            NS_TEST_EXPECT_MSG_EQ(layout->IsGroupIntraServer(ParallelLayout::PP, rank),
                                  false,
                                  "PP group of rank " << rank);
            NS_TEST_EXPECT_MSG_EQ(layout->IsGroupIntraServer(ParallelLayout::DP, rank),
                                  false,
                                  "DP group of rank " << rank);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Expert-parallel groups of Mixtral 8x7B layouts, in both positions of ep relative to dp and with
 * context parallelism.
 */
class ParallelLayoutMixtralTestCase : public TestCase
{
  public:
    /** Create the test case. */
    ParallelLayoutMixtralTestCase()
        : TestCase("Mixtral 8x7B expert-parallel groups follow RankOrder")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TransformerSpec> model = MakeModel("mixtral-8x7b"); // 8 experts, 32 layers
        // tp 1 x cp 1 x pp 4 x dp 16 = 64 GPUs, ep 8 out of dp x cp = 16: expert dp 2.
        Ptr<ParallelLayout> layout = MakeLayout(1, 1, 4, 16, 8);
        NS_TEST_ASSERT_MSG_EQ(layout->Check(*model, 64), "", "consistent");
        NS_TEST_EXPECT_MSG_EQ(layout->GetExpertDp(), 2u, "expert dp = 16 / 8");

        // "tp-cp-ep-dp-pp": rank = dp + 16 x pp; j = dp (cp 1); ep before dp: ep = j mod 8,
        // expertDp = j / 8.
        // Rank 21 = 5 + 16: pp 1, dp 5, j 5: ep 5, expertDp 0.
        //   EP (expertDp 0, ep 0..7): j = 0..7 -> 16 + {0..7} = {16, ..., 23}
        //   EXPERT_DP (ep 5, expertDp 0..1): j = 5, 13 -> {21, 29}
        //   DP: 16 + {0..15}
        ParallelLayout::RankCoordinates c = layout->GetCoordinates(21);
        NS_TEST_EXPECT_MSG_EQ(c.ep, 5u, "rank 21 ep");
        NS_TEST_EXPECT_MSG_EQ(c.expertDp, 0u, "rank 21 expert dp");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::EP, 21)),
                              Show(Ranks(16, 8, 1)),
                              "EP of 21");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::EXPERT_DP, 21)),
                              "{21, 29}",
                              "EXPERT_DP of 21");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::DP, 21)),
                              Show(Ranks(16, 16, 1)),
                              "DP of 21");
        // Rank 45 = 13 + 32: pp 2, dp 13, j 13: ep 5, expertDp 1.
        //   EP: j = 8..15 -> 32 + {8..15} = {40, ..., 47}; EXPERT_DP: j = 5, 13 -> {37, 45}.
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::EP, 45)),
                              Show(Ranks(40, 8, 1)),
                              "EP of 45");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::EXPERT_DP, 45)),
                              "{37, 45}",
                              "EXPERT_DP of 45");
        // EP groups of 8 consecutive ranks aligned on 8: inside one server.
        NS_TEST_EXPECT_MSG_EQ(layout->IsGroupIntraServer(ParallelLayout::EP, 45), true, "EP 45");
        NS_TEST_EXPECT_MSG_EQ(layout->IsGroupIntraServer(ParallelLayout::EXPERT_DP, 45),
                              false,
                              "EXPERT_DP 45");

        // "tp-cp-dp-ep-pp": the same non-expert numbering, but ep after dp: expertDp = j mod 2,
        // ep = j / 2.
        // Rank 21: j 5: expertDp 1, ep 2.
        //   EP (expertDp 1): j = 1 + 2 x {0..7} = 1, 3, ..., 15 -> {17, 19, ..., 31}
        //   EXPERT_DP (ep 2): j = 4, 5 -> {20, 21}
        layout->SetAttribute("RankOrder", StringValue("tp-cp-dp-ep-pp"));
        NS_TEST_ASSERT_MSG_EQ(layout->Check(*model, 64), "", "consistent, ep after dp");
        c = layout->GetCoordinates(21);
        NS_TEST_EXPECT_MSG_EQ(c.ep, 2u, "rank 21 ep, ep after dp");
        NS_TEST_EXPECT_MSG_EQ(c.expertDp, 1u, "rank 21 expert dp, ep after dp");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::EP, 21)),
                              Show(Ranks(17, 8, 2)),
                              "EP of 21, ep after dp");
        NS_TEST_EXPECT_MSG_EQ(Show(layout->GetGroup(ParallelLayout::EXPERT_DP, 21)),
                              "{20, 21}",
                              "EXPERT_DP of 21, ep after dp");
        for (uint32_t rank = 0; rank < 64; ++rank)
        {
            NS_TEST_EXPECT_MSG_EQ(layout->GetRank(layout->GetCoordinates(rank)),
                                  rank,
                                  "round trip of rank " << rank);
        }

        // tp 2 x cp 2 x pp 2 x dp 4 = 32 GPUs, ep 8 out of dp x cp = 8 (expert dp 1),
        // "tp-cp-ep-dp-pp": rank = tp + 2 x cp + 4 x dp + 16 x pp, j = cp + 2 x dp, ep = j.
        // Rank 13 = 1 + 2 x 0 + 4 x 3: tp 1, cp 0, dp 3, pp 0, j 6, ep 6.
        //   EP (tp 1, pp 0, j 0..7): 1 + 2 x cp + 4 x dp = 1 + 2 x j -> {1, 3, ..., 15}
        //   DP_CP: the same ranks; DP (cp 0): 1 + 4 x {0..3} = {1, 5, 9, 13};
        //   CP: 1 + 12 + 2 x {0, 1} = {13, 15}; EXPERT_DP: {13}.
        Ptr<ParallelLayout> withCp = MakeLayout(2, 2, 2, 4, 8);
        NS_TEST_ASSERT_MSG_EQ(withCp->Check(*model, 32), "", "consistent with cp");
        c = withCp->GetCoordinates(13);
        NS_TEST_EXPECT_MSG_EQ(c.ep, 6u, "rank 13 ep");
        NS_TEST_EXPECT_MSG_EQ(c.expertDp, 0u, "rank 13 expert dp");
        NS_TEST_EXPECT_MSG_EQ(Show(withCp->GetGroup(ParallelLayout::EP, 13)),
                              Show(Ranks(1, 8, 2)),
                              "EP of 13");
        NS_TEST_EXPECT_MSG_EQ(Show(withCp->GetGroup(ParallelLayout::DP_CP, 13)),
                              Show(Ranks(1, 8, 2)),
                              "DP_CP of 13");
        NS_TEST_EXPECT_MSG_EQ(Show(withCp->GetGroup(ParallelLayout::DP, 13)),
                              "{1, 5, 9, 13}",
                              "DP of 13");
        NS_TEST_EXPECT_MSG_EQ(Show(withCp->GetGroup(ParallelLayout::CP, 13)),
                              "{13, 15}",
                              "CP of 13");
        NS_TEST_EXPECT_MSG_EQ(Show(withCp->GetGroup(ParallelLayout::EXPERT_DP, 13)),
                              "{13}",
                              "EXPERT_DP of 13");
        // Ranks 1 to 15 are on servers 0 and 1.
        NS_TEST_EXPECT_MSG_EQ(withCp->IsGroupIntraServer(ParallelLayout::EP, 13), false, "EP 13");
        NS_TEST_EXPECT_MSG_EQ(withCp->IsGroupIntraServer(ParallelLayout::TP, 13), true, "TP 13");
    }
};

/**
 * @ingroup llm-fabric-tests
 * TrainingConfig: gradient accumulation steps, batches in tokens, and their messages.
 */
class TrainingConfigTestCase : public TestCase
{
  public:
    /** Create the test case. */
    TrainingConfigTestCase()
        : TestCase("TrainingConfig gradient accumulation steps and checks")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TrainingConfig> config = CreateObject<TrainingConfig>();
        config->SetAttribute("GlobalBatchSequences", UintegerValue(1536));
        // 1536 / (1 x 16) = 96; 1536 / (2 x 16) = 48; 1536 / (4 x 32) = 12.
        NS_TEST_EXPECT_MSG_EQ(config->Check(16), "", "1536 over dp 16");
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientAccumulationSteps(16), 96u, "micro 1, dp 16");
        config->SetAttribute("MicroBatchSize", UintegerValue(2));
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientAccumulationSteps(16), 48u, "micro 2, dp 16");
        config->SetAttribute("MicroBatchSize", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientAccumulationSteps(32), 12u, "micro 4, dp 32");

        // 1536 = 2^9 x 3 is not a multiple of 7, nor of 5 x 16 = 80 (1536 / 80 = 19.2).
        config->SetAttribute("MicroBatchSize", UintegerValue(1));
        NS_TEST_EXPECT_MSG_EQ(
            config->Check(7),
            "global batch of 1536 sequences is not divisible by MicroBatchSize 1 x dp 7 = 7",
            "dp 7");
        config->SetAttribute("MicroBatchSize", UintegerValue(5));
        NS_TEST_EXPECT_MSG_EQ(
            config->Check(16),
            "global batch of 1536 sequences is not divisible by MicroBatchSize 5 x dp 16 = 80",
            "micro 5");
        NS_TEST_EXPECT_MSG_EQ(config->Check(0), "dp must be at least 1", "dp 0");

        // A batch of 4,194,304 tokens (4M) with Llama 3 8B's 8192-token sequences is 512
        // sequences: 512 / (1 x 64) = 8 steps.
        Ptr<TransformerSpec> llama = MakeModel("llama3-8b");
        config->SetAttribute("MicroBatchSize", UintegerValue(1));
        config->SetAttribute("GlobalBatchTokens", UintegerValue(4194304));
        NS_TEST_EXPECT_MSG_EQ(config->Check(64),
                              "GlobalBatchSequences (1536) and GlobalBatchTokens (4194304) are "
                              "both set: set only one of them",
                              "both set");
        config->SetAttribute("GlobalBatchSequences", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(config->Check(64, *llama), "", "tokens with the model");
        NS_TEST_EXPECT_MSG_EQ(config->GetGlobalBatchSequences(*llama), 512u, "4M / 8192");
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientAccumulationSteps(64, *llama), 8u, "512 / 64");
        NS_TEST_EXPECT_MSG_EQ(config->Check(64),
                              "GlobalBatchTokens (4194304) needs a sequence length: set "
                              "SequenceLength or give the model",
                              "tokens without a sequence length");
        // SequenceLength 4096 overrides the model's: 1024 sequences, 1024 / 64 = 16 steps.
        config->SetAttribute("SequenceLength", UintegerValue(4096));
        NS_TEST_EXPECT_MSG_EQ(config->GetEffectiveSequenceLength(*llama), 4096u, "override");
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientAccumulationSteps(64), 16u, "4M / 4096 / 64");
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientAccumulationSteps(64, *llama), 16u, "same");

        // 1,000,000 = 2^6 x 5^6 is not a multiple of GPT-3's 2048 = 2^11.
        config->SetAttribute("SequenceLength", UintegerValue(0));
        config->SetAttribute("GlobalBatchTokens", UintegerValue(1000000));
        NS_TEST_EXPECT_MSG_EQ(
            config->Check(1, *MakeModel("gpt3-175b")),
            "GlobalBatchTokens (1000000) is not a multiple of the sequence length (2048)",
            "tokens not a multiple");
        config->SetAttribute("GlobalBatchTokens", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(
            config->Check(1),
            "GlobalBatchSequences and GlobalBatchTokens are both 0: set one of them",
            "neither set");

        // Precision: gradients of 2 bytes, reduced in FP32 (4 bytes) when asked.
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientReduceBytes(), 2u, "bf16 reduction");
        config->SetAttribute("GradientReduceFp32", BooleanValue(true));
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientReduceBytes(), 4u, "FP32 reduction");
        config->SetAttribute("GradientReduceFp32", BooleanValue(false));
        config->SetAttribute("GradientBytes", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ(config->GetGradientReduceBytes(), 4u, "FP32 gradients");
        NS_TEST_EXPECT_MSG_EQ(config->SetAttributeFailSafe("ParameterBytes", UintegerValue(0)),
                              false,
                              "zero bytes refused");

        config->SetAttribute("Recomputation", StringValue("Selective"));
        NS_TEST_EXPECT_MSG_EQ((config->GetRecomputation() == TrainingConfig::SELECTIVE),
                              true,
                              "Recomputation by name");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The parallel layout test suite.
 */
class ParallelLayoutTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    ParallelLayoutTestSuite()
        : TestSuite("llm-fabric-parallel-layout", Type::UNIT)
    {
        AddTestCase(new ParallelLayoutCheckTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ParallelLayoutSmallGroupsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ParallelLayoutGpt3TestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ParallelLayoutMixtralTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrainingConfigTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static ParallelLayoutTestSuite g_parallelLayoutTestSuite;

} // namespace tests
} // namespace llmfabric
