/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"
#include "workload-test-util.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/object.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/transformer-spec.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of TransformerSpec: parameter counts of the presets and of small models, consistency
 * checks, presets and attributes. Every expected count below is derived by hand in a comment from
 * the published architecture (and checked with a calculator), never produced by the code under
 * test. Notation: h hidden size, f FFN hidden size, V vocabulary, S sequence length, kv the K/V
 * projection width (KvHeads x h / Heads).
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * The tiny model of the tests, through attributes by name: 2 layers, h = 8, 2 heads of 4, 1 KV
 * head (kv = 4), f = 16 gated, V = 10, S = 4, untied, RMSNorm, RoPE, no biases, dense.
 * @return the specification.
 */
Ptr<TransformerSpec>
MakeTinyModel()
{
    Ptr<TransformerSpec> spec = CreateObject<TransformerSpec>();
    spec->SetAttribute("Layers", UintegerValue(2));
    spec->SetAttribute("HiddenSize", UintegerValue(8));
    spec->SetAttribute("Heads", UintegerValue(2));
    spec->SetAttribute("KvHeads", UintegerValue(1));
    spec->SetAttribute("FfnHiddenSize", UintegerValue(16));
    spec->SetAttribute("GatedFfn", BooleanValue(true));
    spec->SetAttribute("VocabularySize", UintegerValue(10));
    spec->SetAttribute("SequenceLength", UintegerValue(4));
    spec->SetAttribute("TiedEmbeddings", BooleanValue(false));
    spec->SetAttribute("LinearBias", BooleanValue(false));
    spec->SetNorm(TransformerSpec::RMS_NORM);
    spec->SetPositionEmbedding(TransformerSpec::ROPE);
    return spec;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Each preset's total parameter count equals the count derived by hand from its architecture.
 */
class TransformerSpecPresetCountTestCase : public TestCase
{
  public:
    /** Create the test case. */
    TransformerSpecPresetCountTestCase()
        : TestCase("Preset parameter counts match hand-derived totals")
    {
    }

  private:
    void DoRun() override
    {
        // GPT-2 small: 12 layers, h 768, 12 heads (MHA, kv 768), f 3072, V 50257, S 1024 learned,
        // LayerNorm, biases, tied.
        //   per layer: 2 norms 2 x 2 x 768 = 3,072
        //              attention 4 x 768^2 = 2,359,296 + biases 4 x 768 = 3,072
        //              FFN 2 x 768 x 3072 = 4,718,592 + biases 3072 + 768 = 3,840
        //              = 7,087,872; x 12 = 85,054,464
        //   token embedding 50257 x 768 = 38,597,376; positions 1024 x 768 = 786,432
        //   final norm 2 x 768 = 1,536; head tied = 0
        //   total 85,054,464 + 38,597,376 + 786,432 + 1,536 = 124,439,808
        NS_TEST_ASSERT_MSG_EQ(MakeModel("gpt2-small")->GetParameterCount(),
                              uint64_t{124439808},
                              "gpt2-small");

        // GPT-3 175B: 96 layers, h 12288, 96 heads (MHA), f 49152, V 50257, S 2048 learned,
        // LayerNorm, biases, tied.
        //   per layer: 2 norms 4 x 12288 = 49,152
        //              attention 4 x 12288^2 = 603,979,776 + biases 4 x 12288 = 49,152
        //              FFN 2 x 12288 x 49152 = 1,207,959,552 + biases 49152 + 12288 = 61,440
        //              = 1,812,099,072; x 96 = 173,961,510,912
        //   token embedding 50257 x 12288 = 617,558,016; positions 2048 x 12288 = 25,165,824
        //   final norm 2 x 12288 = 24,576; head tied = 0
        //   total 173,961,510,912 + 617,558,016 + 25,165,824 + 24,576 = 174,604,259,328
        NS_TEST_ASSERT_MSG_EQ(MakeModel("gpt3-175b")->GetParameterCount(),
                              uint64_t{174604259328},
                              "gpt3-175b");

        // Llama 3 8B: 32 layers, h 4096, 32 heads of 128, 8 KV heads (kv 1024), f 14336 SwiGLU,
        // V 128256, RoPE, RMSNorm, no biases, untied.
        //   per layer: 2 norms 2 x 4096 = 8,192
        //              attention Q, O 2 x 4096^2 = 33,554,432 + K, V 2 x 4096 x 1024 = 8,388,608
        //                = 41,943,040
        //              FFN 3 x 4096 x 14336 = 176,160,768
        //              = 218,112,000; x 32 = 6,979,584,000
        //   token embedding 128256 x 4096 = 525,336,576; head the same 525,336,576
        //   final norm 4,096
        //   total 6,979,584,000 + 2 x 525,336,576 + 4,096 = 8,030,261,248
        NS_TEST_ASSERT_MSG_EQ(MakeModel("llama3-8b")->GetParameterCount(),
                              uint64_t{8030261248},
                              "llama3-8b");

        // Llama 3 70B: 80 layers, h 8192, 64 heads of 128, 8 KV heads (kv 1024), f 28672.
        //   per layer: 2 norms 16,384
        //              attention 2 x 8192^2 = 134,217,728 + 2 x 8192 x 1024 = 16,777,216
        //                = 150,994,944
        //              FFN 3 x 8192 x 28672 = 704,643,072
        //              = 855,654,400; x 80 = 68,452,352,000
        //   embedding and head 2 x 128256 x 8192 = 2 x 1,050,673,152; final norm 8,192
        //   total 68,452,352,000 + 2,101,346,304 + 8,192 = 70,553,706,496
        NS_TEST_ASSERT_MSG_EQ(MakeModel("llama3-70b")->GetParameterCount(),
                              uint64_t{70553706496},
                              "llama3-70b");

        // Llama 3 405B: 126 layers, h 16384, 128 heads of 128, 8 KV heads (kv 1024), f 53248.
        //   per layer: 2 norms 32,768
        //              attention 2 x 16384^2 = 536,870,912 + 2 x 16384 x 1024 = 33,554,432
        //                = 570,425,344
        //              FFN 3 x 16384 x 53248 = 2,617,245,696
        //              = 3,187,703,808; x 126 = 401,650,679,808
        //   embedding and head 2 x 128256 x 16384 = 2 x 2,101,346,304; final norm 16,384
        //   total 401,650,679,808 + 4,202,692,608 + 16,384 = 405,853,388,800
        NS_TEST_ASSERT_MSG_EQ(MakeModel("llama3-405b")->GetParameterCount(),
                              uint64_t{405853388800},
                              "llama3-405b");

        // Mixtral 8x7B: 32 layers, h 4096, 32 heads, 8 KV heads (kv 1024), 8 experts of
        // f 14336 SwiGLU on every layer, V 32000, RMSNorm, no biases, untied.
        //   per layer: 2 norms 8,192
        //              attention 41,943,040 (as Llama 3 8B)
        //              experts 8 x 3 x 4096 x 14336 = 8 x 176,160,768 = 1,409,286,144
        //              router 4096 x 8 = 32,768
        //              = 1,451,270,144; x 32 = 46,440,644,608
        //   embedding and head 2 x 32000 x 4096 = 2 x 131,072,000; final norm 4,096
        //   total 46,440,644,608 + 262,144,000 + 4,096 = 46,702,792,704
        NS_TEST_ASSERT_MSG_EQ(MakeModel("mixtral-8x7b")->GetParameterCount(),
                              uint64_t{46702792704},
                              "mixtral-8x7b");

        for (const std::string& name : TransformerSpec::GetPresetNames())
        {
            NS_TEST_ASSERT_MSG_EQ(MakeModel(name)->Check(), "", name << " should be consistent");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-2 small's per-layer and embedding counts, and its architecture as applied by the preset.
 */
class TransformerSpecGpt2BreakdownTestCase : public TestCase
{
  public:
    /** Create the test case. */
    TransformerSpecGpt2BreakdownTestCase()
        : TestCase("GPT-2 small per-layer and embedding counts")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TransformerSpec> spec = MakeModel("gpt2-small");
        // Per layer (derived in the preset test): 3,072 + 2,362,368 + 4,722,432 = 7,087,872.
        for (uint32_t layer = 0; layer < 12; ++layer)
        {
            NS_TEST_ASSERT_MSG_EQ(spec->GetParametersPerLayer(layer),
                                  uint64_t{7087872},
                                  "layer " << layer);
            NS_TEST_ASSERT_MSG_EQ(spec->IsMoeLayer(layer), false, "GPT-2 is dense");
        }
        // Embeddings: tokens 50257 x 768 = 38,597,376 + positions 1024 x 768 = 786,432
        //   = 39,383,808.
        NS_TEST_ASSERT_MSG_EQ(spec->GetEmbeddingParameterCount(),
                              uint64_t{38597376 + 786432},
                              "GPT-2 small embeddings");
        NS_TEST_ASSERT_MSG_EQ(spec->GetActiveParameterCount(),
                              uint64_t{124439808},
                              "a dense model's parameters are all active");
        NS_TEST_ASSERT_MSG_EQ(spec->GetLayers(), 12u, "Layers");
        NS_TEST_ASSERT_MSG_EQ(spec->GetHeadSize(), 64u, "head size 768 / 12");
        NS_TEST_ASSERT_MSG_EQ(spec->GetTiedEmbeddings(), true, "TiedEmbeddings");
        NS_TEST_ASSERT_MSG_EQ((spec->GetPositionEmbedding() == TransformerSpec::LEARNED),
                              true,
                              "GPT-2 learns its positions");
        NS_TEST_ASSERT_MSG_EQ((spec->GetNorm() == TransformerSpec::LAYER_NORM),
                              true,
                              "GPT-2 uses LayerNorm");

        // The defaults are GPT-2 small too.
        NS_TEST_ASSERT_MSG_EQ(CreateObject<TransformerSpec>()->GetParameterCount(),
                              uint64_t{124439808},
                              "the default architecture is GPT-2 small");

        // The position table disappears with RoPE: 38,597,376 left.
        spec->SetPositionEmbedding(TransformerSpec::ROPE);
        NS_TEST_ASSERT_MSG_EQ(spec->GetEmbeddingParameterCount(),
                              uint64_t{38597376},
                              "RoPE has no parameters");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Small models built in the test, counted term by term.
 */
class TransformerSpecTinyModelTestCase : public TestCase
{
  public:
    /** Create the test case. */
    TransformerSpecTinyModelTestCase()
        : TestCase("Tiny dense models counted by hand")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TransformerSpec> spec = MakeTinyModel();
        NS_TEST_ASSERT_MSG_EQ(spec->Check(), "", "the tiny model is consistent");
        // h 8, 2 heads of 4, 1 KV head: kv 4. f 16 gated. RMSNorm, RoPE, no biases, untied.
        //   per layer: 2 norms 2 x 8 = 16
        //              Q 8 x 8 = 64, K 8 x 4 = 32, V 8 x 4 = 32, O 8 x 8 = 64: 192
        //              FFN gate, up, down 3 x 8 x 16 = 384
        //              = 592; x 2 = 1,184
        //   token embedding 10 x 8 = 80; head 10 x 8 = 80; final norm 8
        //   total 1,184 + 80 + 80 + 8 = 1,352
        NS_TEST_ASSERT_MSG_EQ(spec->GetParametersPerLayer(0), uint64_t{592}, "tiny layer 0");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParametersPerLayer(1), uint64_t{592}, "tiny layer 1");
        NS_TEST_ASSERT_MSG_EQ(spec->GetEmbeddingParameterCount(), uint64_t{80}, "tiny embedding");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParameterCount(), uint64_t{1352}, "tiny total");

        // The same with LayerNorm, biases and 4 learned positions.
        //   per layer: 2 norms 2 x (8 + 8) = 32
        //              attention 192 + biases Q 8, K 4, V 4, O 8 = 24: 216
        //              FFN 384 + biases gate 16, up 16, down 8 = 40: 424
        //              = 672; x 2 = 1,344
        //   embeddings 10 x 8 + 4 x 8 = 112; head 80; final norm 16
        //   total 1,344 + 112 + 80 + 16 = 1,552
        spec->SetNorm(TransformerSpec::LAYER_NORM);
        spec->SetPositionEmbedding(TransformerSpec::LEARNED);
        spec->SetAttribute("LinearBias", BooleanValue(true));
        NS_TEST_ASSERT_MSG_EQ(spec->GetParametersPerLayer(0), uint64_t{672}, "biased layer");
        NS_TEST_ASSERT_MSG_EQ(spec->GetEmbeddingParameterCount(), uint64_t{112}, "with positions");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParameterCount(), uint64_t{1552}, "biased total");

        // Ungated with biases: FFN 2 x 8 x 16 = 256 + biases up 16, down 8 = 280, so a layer is
        // 32 + 216 + 280 = 528; tied: total 2 x 528 + 112 + 16 = 1,184.
        spec->SetAttribute("GatedFfn", BooleanValue(false));
        spec->SetAttribute("TiedEmbeddings", BooleanValue(true));
        NS_TEST_ASSERT_MSG_EQ(spec->GetParametersPerLayer(1), uint64_t{528}, "ungated layer");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParameterCount(), uint64_t{1184}, "ungated tied total");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Mixture of experts: which layers are MoE, total and active counts of a tiny model and of
 * Mixtral 8x7B.
 */
class TransformerSpecMoeTestCase : public TestCase
{
  public:
    /** Create the test case. */
    TransformerSpecMoeTestCase()
        : TestCase("Mixture-of-experts total and active parameters")
    {
    }

  private:
    void DoRun() override
    {
        // Mixtral 8x7B active: per layer 8,192 + 41,943,040 + 2 of 8 experts 2 x 176,160,768 =
        // 352,321,536 + router 32,768 = 394,305,536; x 32 = 12,617,777,152; + embedding and head
        // 262,144,000 + final norm 4,096 = 12,879,925,248 (published: about 12.9B).
        Ptr<TransformerSpec> mixtral = MakeModel("mixtral-8x7b");
        NS_TEST_ASSERT_MSG_EQ(mixtral->GetActiveParameterCount(),
                              uint64_t{12879925248},
                              "Mixtral 8x7B active parameters");
        NS_TEST_ASSERT_MSG_EQ(mixtral->GetParametersPerLayer(31),
                              uint64_t{1451270144},
                              "Mixtral layer (derived in the preset test)");
        NS_TEST_ASSERT_MSG_EQ(mixtral->GetMoeLayerCount(), 32u, "every Mixtral layer is MoE");
        NS_TEST_ASSERT_MSG_EQ(mixtral->GetTopK(), 2u, "Mixtral routes to 2 experts");

        // The tiny model with 4 layers, 4 experts, top 2, 1 shared expert, MoE every 2nd layer
        // (layers 0 and 2).
        Ptr<TransformerSpec> spec = MakeTinyModel();
        spec->SetAttribute("Layers", UintegerValue(4));
        spec->SetAttribute("Experts", UintegerValue(4));
        spec->SetAttribute("TopK", UintegerValue(2));
        spec->SetAttribute("SharedExperts", UintegerValue(1));
        spec->SetAttribute("MoeLayerInterval", UintegerValue(2));
        NS_TEST_ASSERT_MSG_EQ(spec->Check(), "", "the tiny MoE model is consistent");
        NS_TEST_ASSERT_MSG_EQ(spec->IsMoeLayer(0), true, "layer 0 is MoE");
        NS_TEST_ASSERT_MSG_EQ(spec->IsMoeLayer(1), false, "layer 1 is dense");
        NS_TEST_ASSERT_MSG_EQ(spec->IsMoeLayer(2), true, "layer 2 is MoE");
        NS_TEST_ASSERT_MSG_EQ(spec->IsMoeLayer(3), false, "layer 3 is dense");
        NS_TEST_ASSERT_MSG_EQ(spec->GetMoeLayerCount(), 2u, "two MoE layers");
        //   dense layer: 16 + 192 + 384 = 592
        //   MoE layer: 16 + 192 + (4 + 1 shared) x 384 = 1,920 + router 8 x 4 = 32: 2,160
        //   total 2 x 592 + 2 x 2,160 + embedding 80 + head 80 + final norm 8 = 5,672
        //   active MoE layer: 16 + 192 + (2 + 1) x 384 = 1,152 + 32 = 1,392
        //   active total 2 x 592 + 2 x 1,392 + 168 = 4,136
        NS_TEST_ASSERT_MSG_EQ(spec->GetParametersPerLayer(1), uint64_t{592}, "dense layer");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParametersPerLayer(2), uint64_t{2160}, "MoE layer");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParameterCount(), uint64_t{5672}, "MoE total");
        NS_TEST_ASSERT_MSG_EQ(spec->GetActiveParameterCount(), uint64_t{4136}, "MoE active");

        // One expert is dense: the MoE attributes are ignored, 4 x 592 + 168 = 2,536.
        spec->SetAttribute("Experts", UintegerValue(1));
        spec->SetAttribute("SharedExperts", UintegerValue(0));
        NS_TEST_ASSERT_MSG_EQ(spec->GetMoeLayerCount(), 0u, "one expert is dense");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParameterCount(), uint64_t{2536}, "one expert total");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Check() names the attributes of each inconsistent combination.
 */
class TransformerSpecCheckTestCase : public TestCase
{
  public:
    /** Create the test case. */
    TransformerSpecCheckTestCase()
        : TestCase("Check() reports inconsistent attributes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TransformerSpec> spec = MakeModel("gpt2-small");
        spec->SetAttribute("HiddenSize", UintegerValue(770));
        NS_TEST_ASSERT_MSG_EQ(spec->Check(),
                              "HiddenSize (770) is not divisible by Heads (12)",
                              "hidden size");

        spec = MakeModel("gpt2-small");
        spec->SetAttribute("KvHeads", UintegerValue(5));
        NS_TEST_ASSERT_MSG_EQ(spec->Check(),
                              "Heads (12) is not a multiple of KvHeads (5)",
                              "KV heads");

        spec = MakeModel("gpt2-small");
        spec->SetAttribute("KvHeads", UintegerValue(24));
        NS_TEST_ASSERT_MSG_EQ(spec->Check(), "KvHeads (24) exceeds Heads (12)", "too many KV");

        spec = MakeModel("mixtral-8x7b");
        spec->SetAttribute("Experts", UintegerValue(2));
        spec->SetAttribute("TopK", UintegerValue(3));
        NS_TEST_ASSERT_MSG_EQ(spec->Check(), "TopK (3) exceeds Experts (2)", "top-k");

        spec = MakeModel("mixtral-8x7b");
        spec->SetAttribute("CapacityFactor", DoubleValue(0.0));
        NS_TEST_ASSERT_MSG_EQ(spec->Check(),
                              "CapacityFactor (0) must be positive with Experts (8)",
                              "capacity factor");

        spec = MakeModel("llama3-8b");
        spec->SetAttribute("SharedExperts", UintegerValue(1));
        NS_TEST_ASSERT_MSG_EQ(spec->Check(),
                              "SharedExperts (1) needs Experts > 1, not Experts (0)",
                              "shared experts of a dense model");

        // Dense models ignore TopK and CapacityFactor.
        spec = MakeModel("llama3-8b");
        spec->SetAttribute("TopK", UintegerValue(3));
        spec->SetAttribute("CapacityFactor", DoubleValue(0.0));
        NS_TEST_ASSERT_MSG_EQ(spec->Check(), "", "a dense model ignores TopK");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Preset names, the unknown preset message, and attributes by name.
 */
class TransformerSpecAttributesTestCase : public TestCase
{
  public:
    /** Create the test case. */
    TransformerSpecAttributesTestCase()
        : TestCase("Presets by name and attributes by name")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> expected =
            {"gpt2-small", "gpt3-175b", "llama3-8b", "llama3-70b", "llama3-405b", "mixtral-8x7b"};
        NS_TEST_ASSERT_MSG_EQ((TransformerSpec::GetPresetNames() == expected),
                              true,
                              "preset names");

        Ptr<TransformerSpec> spec = MakeModel("llama3-8b");
        NS_TEST_ASSERT_MSG_EQ(spec->ApplyPreset("gpt5"),
                              "unknown preset 'gpt5' (known: gpt2-small, gpt3-175b, llama3-8b, "
                              "llama3-70b, llama3-405b, mixtral-8x7b)",
                              "unknown preset message");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParameterCount(),
                              uint64_t{8030261248},
                              "an unknown preset changes nothing");

        // A preset resets every attribute, including the MoE ones.
        spec->SetAttribute("SharedExperts", UintegerValue(2));
        spec->SetAttribute("MoeLayerInterval", UintegerValue(3));
        spec->SetAttribute("CapacityFactor", DoubleValue(1.5));
        NS_TEST_ASSERT_MSG_EQ(spec->ApplyPreset("mixtral-8x7b"), "", "known preset");
        NS_TEST_ASSERT_MSG_EQ(spec->GetSharedExperts(), 0u, "SharedExperts reset");
        NS_TEST_ASSERT_MSG_EQ(spec->GetMoeLayerInterval(), 1u, "MoeLayerInterval reset");
        NS_TEST_ASSERT_MSG_EQ(spec->GetCapacityFactor(), 1.0, "CapacityFactor reset");
        NS_TEST_ASSERT_MSG_EQ(spec->GetParameterCount(), uint64_t{46702792704}, "Mixtral");

        spec = CreateObject<TransformerSpec>();
        spec->SetAttribute("Layers", UintegerValue(4));
        spec->SetAttribute("KvHeads", UintegerValue(4));
        spec->SetAttribute("Experts", UintegerValue(16));
        spec->SetAttribute("GatedFfn", BooleanValue(true));
        spec->SetAttribute("CapacityFactor", DoubleValue(1.25));
        NS_TEST_ASSERT_MSG_EQ(spec->GetLayers(), 4u, "Layers by name");
        NS_TEST_ASSERT_MSG_EQ(spec->GetKvHeads(), 4u, "KvHeads by name");
        NS_TEST_ASSERT_MSG_EQ(spec->GetExperts(), 16u, "Experts by name");
        NS_TEST_ASSERT_MSG_EQ(spec->GetGatedFfn(), true, "GatedFfn by name");
        NS_TEST_ASSERT_MSG_EQ(spec->GetCapacityFactor(), 1.25, "CapacityFactor by name");
        UintegerValue layers;
        spec->GetAttribute("Layers", layers);
        NS_TEST_ASSERT_MSG_EQ(layers.Get(), 4u, "Layers read by name");

        // Enumerations by their names, as a configuration file would set them.
        spec->SetAttribute("Norm", StringValue("RMSNorm"));
        spec->SetAttribute("PositionEmbedding", StringValue("RoPE"));
        NS_TEST_ASSERT_MSG_EQ((spec->GetNorm() == TransformerSpec::RMS_NORM), true, "Norm by name");
        NS_TEST_ASSERT_MSG_EQ((spec->GetPositionEmbedding() == TransformerSpec::ROPE),
                              true,
                              "PositionEmbedding by name");

        // Out-of-bounds values are refused by the checkers.
        NS_TEST_ASSERT_MSG_EQ(spec->SetAttributeFailSafe("Layers", UintegerValue(0)),
                              false,
                              "zero layers is refused");
        NS_TEST_ASSERT_MSG_EQ(spec->SetAttributeFailSafe("Heads", UintegerValue(0)),
                              false,
                              "zero heads is refused");
        NS_TEST_ASSERT_MSG_EQ(spec->GetLayers(), 4u, "a refused value changes nothing");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The transformer specification test suite.
 */
class TransformerSpecTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    TransformerSpecTestSuite()
        : TestSuite("llm-fabric-transformer-spec", Type::UNIT)
    {
        AddTestCase(new TransformerSpecPresetCountTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TransformerSpecGpt2BreakdownTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TransformerSpecTinyModelTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TransformerSpecMoeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TransformerSpecCheckTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TransformerSpecAttributesTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static TransformerSpecTestSuite g_transformerSpecTestSuite;

} // namespace tests
} // namespace llmfabric
