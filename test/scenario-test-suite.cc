/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/gpu-cluster-topology.h"
#include "ns3/gpu-spec.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/network-config.h"
#include "ns3/parallel-layout.h"
#include "ns3/scenario.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <dirent.h>
#include <set>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of Scenario: every file of scenarios/ loads with the expected degrees and parameter
 * count, every class of error gives its exact one-line message, explicit model keys override
 * a preset, and the topology and network sections reach their objects. Expected parameter counts
 * are those of transformer-spec-test-suite.cc (checked there against the published counts) or
 * derived by hand in a comment.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// The name given to LoadFromString in the error cases.
const std::string NAME = "t.yaml";

/**
 * A valid scenario, with replaceable sections: GPT-2 small on 16 GPUs, tp 2 x pp 2 x dp 4.
 */
struct Yaml
{
    std::string model{"model:\n  preset: gpt2-small\n"};                 //!< The model section.
    std::string training{"training:\n  global_batch_sequences: 64\n"};   //!< The training section.
    std::string layout{"layout:\n  tp: 2\n  pp: 2\n  dp: 4\n"};          //!< The layout section.
    std::string cluster{"cluster:\n  gpus: 16\n  gpus_per_server: 4\n"}; //!< The cluster section.
    std::string extra;                                                   //!< Further sections.

    /** @return the document. */
    std::string Text() const
    {
        return model + training + layout + cluster + extra;
    }
};

/**
 * @param yaml a document.
 * @return the message of LoadFromString (empty if it loads).
 */
std::string
LoadText(const std::string& yaml)
{
    Scenario scenario;
    return Scenario::LoadFromString(yaml, NAME, scenario);
}

/// A document and the line Scenario::LoadFromString gives for it.
struct LoadCase
{
    const char* name;         //!< The row's name, in the assertion messages.
    std::string Yaml::*field; //!< The section of the base document replaced (null: none).
    const char* text;         //!< The section's text (the whole document when field is null).
    const char* expected;     //!< The exact message (empty: the document loads).
    bool prefix{false};       //!< Whether only the message's beginning is checked.
};

/**
 * @ingroup llm-fabric-tests
 * A test case that checks tables of documents against their messages.
 */
class ScenarioTestCase : public TestCase
{
  protected:
    /** @param name the test case's name. */
    explicit ScenarioTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * Load each row's document and check its message, with the row's name in the assertion.
     * @param cases the rows.
     */
    template <std::size_t N>
    void CheckLoads(const LoadCase (&cases)[N])
    {
        for (const LoadCase& row : cases)
        {
            Yaml y;
            std::string document = row.text;
            if (row.field != nullptr)
            {
                y.*row.field = row.text;
                document = y.Text();
            }
            std::string message = LoadText(document);
            if (row.prefix)
            {
                NS_TEST_EXPECT_MSG_EQ(message.rfind(row.expected, 0),
                                      0,
                                      row.name << ": " << message);
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(message, row.expected, row.name);
            }
        }
    }
};

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Every file of scenarios/ loads, and the files of the presets give the expected degrees, GPU
 * counts and parameter counts.
 */
class ScenarioFilesTestCase : public TestCase
{
  public:
    ScenarioFilesTestCase()
        : TestCase("Scenario files load with the expected layouts")
    {
    }

  private:
    /// The expected contents of one file.
    struct Expected
    {
        const char* file;        //!< File name in scenarios/.
        uint32_t gpus;           //!< cluster.gpus.
        uint32_t gpusPerServer;  //!< cluster.gpus_per_server.
        uint32_t tp;             //!< layout.tp.
        uint32_t cp;             //!< layout.cp.
        uint32_t pp;             //!< layout.pp.
        uint32_t dp;             //!< layout.dp.
        uint32_t ep;             //!< layout.ep.
        uint64_t parameters;     //!< TransformerSpec::GetParameterCount().
        uint64_t batchSequences; //!< Global batch, in sequences.
    };

    void DoRun() override
    {
        // Llama 3 405B with 128 layers instead of 126 (see the file): the preset's 405853388800
        // plus two layers of 3187703808 (attention 2 x 16384^2 + 2 x 16384 x 1024 = 570425344,
        // SwiGLU FFN 3 x 16384 x 53248 = 2617245696, two RMSNorms 32768) = 412228796416.
        const Expected expected[] = {
            {"gpt2-small-16gpu.yaml", 16, 4, 2, 1, 2, 4, 1, 124439808, 512},
            {"gpt3-175b.yaml", 1024, 8, 8, 1, 8, 16, 1, 174604259328, 1536},
            {"llama3-8b-128gpu.yaml", 128, 8, 8, 1, 1, 16, 1, 8030261248, 512},
            {"llama3-70b.yaml", 2048, 8, 8, 1, 4, 64, 1, 70553706496, 2048},
            {"llama3-405b.yaml", 16384, 8, 8, 1, 16, 128, 1, 412228796416, 2048},
            {"mixtral-8x7b.yaml", 64, 8, 1, 1, 4, 16, 8, 46702792704, 256},
        };
        const std::string folder = std::string(LLM_FABRIC_SOURCE_DIR) + "/scenarios";

        std::set<std::string> files;
        DIR* dir = opendir(folder.c_str());
        NS_TEST_ASSERT_MSG_NE(dir, nullptr, "cannot open " << folder);
        while (dirent* entry = readdir(dir))
        {
            std::string name = entry->d_name;
            if (name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0)
            {
                files.insert(name);
            }
        }
        closedir(dir);
        for (const std::string& file : files)
        {
            Scenario scenario;
            NS_TEST_EXPECT_MSG_EQ(Scenario::Load(folder + "/" + file, scenario), "", file);
        }

        for (const Expected& e : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(files.count(e.file), 1u, e.file << " is missing");
            Scenario scenario;
            std::string error = Scenario::Load(folder + "/" + e.file, scenario);
            NS_TEST_EXPECT_MSG_EQ(error, "", e.file);
            if (!error.empty())
            {
                continue;
            }
            Ptr<ParallelLayout> layout = scenario.GetLayout();
            NS_TEST_EXPECT_MSG_EQ(scenario.GetGpus(), e.gpus, e.file);
            NS_TEST_EXPECT_MSG_EQ(layout->GetGpusPerServer(), e.gpusPerServer, e.file);
            NS_TEST_EXPECT_MSG_EQ(layout->GetTp(), e.tp, e.file);
            NS_TEST_EXPECT_MSG_EQ(layout->GetCp(), e.cp, e.file);
            NS_TEST_EXPECT_MSG_EQ(layout->GetPp(), e.pp, e.file);
            NS_TEST_EXPECT_MSG_EQ(layout->GetDp(), e.dp, e.file);
            NS_TEST_EXPECT_MSG_EQ(layout->GetEp(), e.ep, e.file);
            NS_TEST_EXPECT_MSG_EQ(layout->GetWorldSize(), e.gpus, e.file);
            NS_TEST_EXPECT_MSG_EQ(scenario.GetModel()->GetParameterCount(), e.parameters, e.file);
            NS_TEST_EXPECT_MSG_EQ(
                scenario.GetTraining()->GetGlobalBatchSequences(*scenario.GetModel()),
                e.batchSequences,
                e.file);
        }

        // Details that only some files set.
        Scenario llama;
        NS_TEST_ASSERT_MSG_EQ(Scenario::Load(folder + "/llama3-405b.yaml", llama), "", "405b");
        NS_TEST_EXPECT_MSG_EQ(llama.GetModel()->GetLayers(), 128u, "layers override");
        NS_TEST_EXPECT_MSG_EQ(llama.GetModel()->GetHiddenSize(), 16384u, "preset kept");
        NS_TEST_EXPECT_MSG_EQ(llama.GetLayout()->GetRankOrder(), "tp-cp-pp-ep-dp", "rank order");
        NS_TEST_EXPECT_MSG_EQ(llama.GetLayout()->GetFsdp(), ParallelLayout::SHARD_GRAD_OP, "fsdp");
        NS_TEST_EXPECT_MSG_EQ(llama.GetTraining()->GetGlobalBatchSequences(*llama.GetModel()),
                              2048u,
                              "16M tokens of 8192");
        NS_TEST_EXPECT_MSG_EQ(
            llama.GetTraining()->GetGradientAccumulationSteps(llama.GetLayout()->GetDp(),
                                                              *llama.GetModel()),
            16u,
            "16 sequences per data-parallel rank, micro-batch 1");
        NS_TEST_EXPECT_MSG_EQ(llama.GetGpu()->GetName(), "h100", "gpu");

        Scenario gpt3;
        NS_TEST_ASSERT_MSG_EQ(Scenario::Load(folder + "/gpt3-175b.yaml", gpt3), "", "gpt3");
        NS_TEST_EXPECT_MSG_EQ(gpt3.GetGpu()->GetName(), "a100", "gpu");
        NS_TEST_EXPECT_MSG_EQ(gpt3.GetLayout()->GetServer(1023), 127u, "128 servers of 8");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Each class of error gives its exact message, and the output scenario is left unchanged.
 */
class ScenarioErrorsTestCase : public ScenarioTestCase
{
  public:
    ScenarioErrorsTestCase()
        : ScenarioTestCase("Scenario errors are one exact line each")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(LoadText(Yaml().Text()), "", "the base document is valid");

        const LoadCase cases[] = {
            // Unknown keys, in each section.
            {"model",
             &Yaml::model,
             "model:\n  preset: gpt2-small\n  layer: 12\n",
             "t.yaml: model.layer: unknown key (known: preset, layers, hidden_size, heads, "
             "kv_heads, ffn_hidden_size, gated_ffn, vocabulary_size, tied_embeddings, "
             "sequence_length, position_embedding, norm, linear_bias, experts, top_k, "
             "capacity_factor, moe_layer_interval, shared_experts)"},
            {"training",
             &Yaml::training,
             "training:\n  global_batch_sequences: 64\n  batch: 4\n",
             "t.yaml: training.batch: unknown key (known: "
             "global_batch_sequences, global_batch_tokens, micro_batch, "
             "sequence_length, parameter_bytes, activation_bytes, "
             "gradient_bytes, gradient_reduce_fp32, recomputation)"},
            {"layout",
             &Yaml::layout,
             "layout:\n  tpp: 2\n",
             "t.yaml: layout.tpp: unknown key (known: dp, tp, pp, "
             "virtual_stages, cp, cp_style, ep, sequence_parallel, zero_stage, "
             "fsdp, rank_order, allow_tp_across_servers)"},
            {"cluster",
             &Yaml::cluster,
             "cluster:\n  gpus: 16\n  nodes: 4\n",
             "t.yaml: cluster.nodes: unknown key (known: gpus, gpus_per_server, "
             "gpu, mfu, peak_flops)"},
            {"collectives",
             &Yaml::extra,
             "collectives:\n  allreduce: ring\n",
             "t.yaml: collectives.allreduce: unknown key (known: all_reduce, "
             "all_gather, reduce_scatter, all_to_all, send_recv, broadcast)"},
            {"section",
             &Yaml::extra,
             "models:\n  preset: gpt2-small\n",
             "t.yaml: models: unknown section (known: model, training, layout, "
             "cluster, collectives, topology, network, faults)"},
            {"duplicate",
             &Yaml::layout,
             "layout:\n  tp: 2\n  pp: 2\n  tp: 4\n",
             "t.yaml: layout.tp: duplicate key"},

            // Wrong types and ranges.
            {"word",
             &Yaml::layout,
             "layout:\n  tp: eight\n",
             "t.yaml: layout.tp: expected a positive integer, got 'eight'"},
            {"float",
             &Yaml::layout,
             "layout:\n  tp: 2.0\n",
             "t.yaml: layout.tp: expected a positive integer, got '2.0'"},
            {"zero",
             &Yaml::layout,
             "layout:\n  dp: 0\n",
             "t.yaml: layout.dp: expected a positive integer, got '0'"},
            {"sequence",
             &Yaml::layout,
             "layout:\n  tp: [2, 4]\n",
             "t.yaml: layout.tp: expected a positive integer, got a sequence"},
            {"null",
             &Yaml::layout,
             "layout:\n  tp:\n",
             "t.yaml: layout.tp: expected a positive integer, got nothing"},
            {"overflow",
             &Yaml::layout,
             "layout:\n  tp: 99999999999999999999999\n",
             "t.yaml: layout.tp: expected an integer from 1 to 4294967295, got "
             "'99999999999999999999999'"},
            {"range",
             &Yaml::model,
             "model:\n  preset: gpt2-small\n  layers: 2000\n",
             "t.yaml: model.layers: expected an integer from 1 to 1024, got "
             "'2000'"},
            {"negative",
             &Yaml::model,
             "model:\n  preset: gpt2-small\n  experts: -1\n",
             "t.yaml: model.experts: expected a non-negative integer, got '-1'"},
            {"boolean",
             &Yaml::model,
             "model:\n  preset: gpt2-small\n  gated_ffn: yes\n",
             "t.yaml: model.gated_ffn: expected true or false, got 'yes'"},
            {"enum",
             &Yaml::model,
             "model:\n  preset: gpt2-small\n  norm: batch_norm\n",
             "t.yaml: model.norm: expected one of layer_norm, rms_norm, got "
             "'batch_norm'"},
            {"double range",
             &Yaml::model,
             "model:\n  preset: gpt2-small\n  capacity_factor: 2000\n",
             "t.yaml: model.capacity_factor: expected a number from 0 to 1024, "
             "got '2000'"},
            {"number",
             &Yaml::cluster,
             "cluster:\n  gpus: 16\n  gpus_per_server: 4\n  mfu: high\n",
             "t.yaml: cluster.mfu: expected a number, got 'high'"},
            {"negative number",
             &Yaml::cluster,
             "cluster:\n  gpus: 16\n  gpus_per_server: 4\n  mfu: -0.5\n",
             "t.yaml: cluster.mfu: expected a number of at least 0, got '-0.5'"},
            {"gpus",
             &Yaml::cluster,
             "cluster:\n  gpus: sixteen\n",
             "t.yaml: cluster.gpus: expected a positive integer, got 'sixteen'"},
            {"section type",
             &Yaml::layout,
             "layout: 4\n",
             "t.yaml: layout: expected a mapping, got '4'"},
        };
        CheckLoads(cases);

        CheckMissingAndConsistency();
    }

    /// Missing keys and sections, presets and algorithms, the objects' consistency, YAML syntax and
    /// a missing file.
    void CheckMissingAndConsistency()
    {
        const LoadCase cases[] = {
            // Missing required keys and sections.
            {"gpus",
             &Yaml::cluster,
             "cluster:\n  gpus_per_server: 4\n",
             "t.yaml: cluster.gpus: required key is missing"},
            {"cluster", &Yaml::cluster, "", "t.yaml: cluster: required section is missing"},
            {"architecture",
             &Yaml::model,
             "model:\n  layers: 12\n  hidden_size: 768\n  heads: 12\n  vocabulary_size: 50257\n",
             "t.yaml: model.ffn_hidden_size: required key is missing (no preset "
             "is given)"},
            {"both batches",
             &Yaml::training,
             "training:\n  global_batch_sequences: 64\n  global_batch_tokens: 65536\n",
             "t.yaml: training: global_batch_sequences and global_batch_tokens "
             "are both given: give exactly one"},
            {"no batch",
             &Yaml::training,
             "training:\n  micro_batch: 2\n",
             "t.yaml: training: one of global_batch_sequences and "
             "global_batch_tokens is required"},
            {"empty",
             nullptr,
             "",
             "t.yaml: expected a mapping of sections (model, training, layout, "
             "cluster, collectives, topology, network, faults), got nothing"},

            // Presets and algorithms.
            {"model preset",
             &Yaml::model,
             "model:\n  preset: gpt5\n",
             "t.yaml: model.preset: unknown preset 'gpt5' (known: gpt2-small, "
             "gpt3-175b, llama3-8b, llama3-70b, llama3-405b, mixtral-8x7b)"},
            {"gpu preset",
             &Yaml::cluster,
             "cluster:\n  gpus: 16\n  gpus_per_server: 4\n  gpu: v100\n",
             "t.yaml: cluster.gpu: unknown preset 'v100' (known: a100, h100, "
             "h200, b200)"},
            // The aliases are listed (the test binary registers test-only ones after these).
            {"algorithm",
             &Yaml::extra,
             "collectives:\n  all_reduce: butterfly\n",
             "t.yaml: collectives.all_reduce: unknown collective "
             "algorithm 'butterfly' (known: direct, "
             "double-binary-tree, halving-doubling, hierarchical, "
             "naive, recursive-doubling, ring, staggered, ",
             true},
            {"combination",
             &Yaml::extra,
             "collectives:\n  all_to_all: ring\n",
             "t.yaml: collectives.all_to_all: algorithm 'ring' does not apply to "
             "all-to-all (supported: direct, staggered)"},

            // Consistency checks of the objects.
            {"product",
             &Yaml::cluster,
             "cluster:\n  gpus: 32\n  gpus_per_server: 4\n",
             "t.yaml: layout: tp 2 x cp 1 x pp 2 x dp 4 = 16 != 32 GPUs"},
            {"model check",
             &Yaml::model,
             "model:\n  preset: gpt2-small\n  heads: 10\n  kv_heads: 10\n",
             "t.yaml: model: HiddenSize (768) is not divisible by Heads (10)"},
            {"training check",
             &Yaml::training,
             "training:\n  global_batch_sequences: 62\n",
             "t.yaml: training: global batch of 62 sequences is not divisible "
             "by MicroBatchSize 1 x dp 4 = 4"},
            {"gpu check",
             &Yaml::cluster,
             "cluster:\n  gpus: 16\n  gpus_per_server: 4\n  mfu: 1.5\n",
             "t.yaml: cluster: Mfu (1.5) must be in (0, 1]"},

            // YAML syntax error, with the line and column of the problem (from 1).
            {"syntax",
             nullptr,
             "model:\n  preset: gpt2-small\ntraining: [1, 2\n",
             "t.yaml: line 4, column 1: end of sequence flow not found"},
            {"tab",
             nullptr,
             "model:\n  preset: gpt2-small\n\tlayers: 3\n",
             "t.yaml: line 3, column 1: illegal tab when looking for indentation"},
        };
        CheckLoads(cases);

        // A missing file; the output is unchanged on error.
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(Yaml().Text(), NAME, scenario), "", "base");
        NS_TEST_EXPECT_MSG_EQ(Scenario::Load("/nonexistent/missing.yaml", scenario),
                              "/nonexistent/missing.yaml: cannot open",
                              "missing file");
        Yaml y;
        y.cluster = "cluster:\n  gpus: 32\n  gpus_per_server: 4\n";
        NS_TEST_EXPECT_MSG_NE(Scenario::LoadFromString(y.Text(), NAME, scenario), "", "error");
        NS_TEST_EXPECT_MSG_EQ(scenario.GetGpus(), 16u, "unchanged on error");
        NS_TEST_EXPECT_MSG_EQ(scenario.GetLayout()->GetTp(), 2u, "unchanged on error");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Explicit model keys override a preset wherever the preset is written; a model without a
 * preset; every key of the other sections reaches its attribute.
 */
class ScenarioValuesTestCase : public TestCase
{
  public:
    ScenarioValuesTestCase()
        : TestCase("Scenario keys reach their attributes")
    {
    }

  private:
    void DoRun() override
    {
        // Overrides, written after and before the preset.
        for (const char* model : {"model:\n  preset: llama3-8b\n  layers: 16\n  kv_heads: 32\n",
                                  "model:\n  layers: 16\n  kv_heads: 32\n  preset: llama3-8b\n"})
        {
            Yaml y;
            y.model = model;
            Scenario scenario;
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, scenario), "", model);
            Ptr<TransformerSpec> spec = scenario.GetModel();
            NS_TEST_EXPECT_MSG_EQ(spec->GetLayers(), 16u, "override");
            NS_TEST_EXPECT_MSG_EQ(spec->GetKvHeads(), 32u, "override");
            NS_TEST_EXPECT_MSG_EQ(spec->GetHiddenSize(), 4096u, "from the preset");
            NS_TEST_EXPECT_MSG_EQ(spec->GetVocabularySize(), 128256u, "from the preset");
            NS_TEST_EXPECT_MSG_EQ(spec->GetNorm(), TransformerSpec::RMS_NORM, "from the preset");
        }

        // A model without a preset. Parameters, by hand: token embedding 1000 x 64 = 64000 and
        // learned positions 1024 x 64 = 65536 (the SequenceLength default); per layer two
        // LayerNorms 2 x 128 = 256, Q, K, V, O 4 x (64 x 64 + 64) = 16640, FFN 64 x 256 + 256 +
        // 256 x 64 + 64 = 33088, so 49984; two layers 99968; final norm 128; tied head 0.
        // Total 129536 + 99968 + 128 = 229632.
        {
            Yaml y;
            y.model = "model:\n  layers: 2\n  hidden_size: 64\n  heads: 4\n"
                      "  ffn_hidden_size: 256\n  vocabulary_size: 1000\n";
            y.layout = "layout:\n  tp: 2\n  dp: 8\n";
            Scenario scenario;
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, scenario), "", "tiny");
            NS_TEST_EXPECT_MSG_EQ(scenario.GetModel()->GetKvHeads(), 4u, "kv_heads = heads");
            NS_TEST_EXPECT_MSG_EQ(scenario.GetModel()->GetParameterCount(),
                                  uint64_t{229632},
                                  "by hand");
        }

        CheckOtherKeysAndDefaults();
    }

    /// The algorithm a scenario must choose for a kind of collective.
    struct AlgorithmCase
    {
        CollectiveKind kind;  //!< The kind of collective.
        const char* expected; //!< The alias of the algorithm.
        const char* name;     //!< The row's name, in the assertion message.
    };

    /**
     * Check the algorithm of each row's kind, with the row's name in the message.
     * @param scenario a loaded scenario.
     * @param cases the rows.
     */
    void CheckAlgorithms(const Scenario& scenario, const std::vector<AlgorithmCase>& cases)
    {
        for (const AlgorithmCase& row : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(TypeIdAlias::GetShortName(scenario.GetAlgorithm(row.kind)),
                                  row.expected,
                                  row.name);
        }
    }

    /// Every other key, and the defaults without a collectives section.
    void CheckOtherKeysAndDefaults()
    {
        // Every other key.
        {
            Yaml y;
            y.model = "model:\n  preset: mixtral-8x7b\n  gated_ffn: false\n"
                      "  tied_embeddings: true\n  sequence_length: 4096\n"
                      "  position_embedding: learned\n  norm: layer_norm\n  linear_bias: true\n"
                      "  experts: 16\n  top_k: 4\n  capacity_factor: 1.25\n"
                      "  moe_layer_interval: 2\n  shared_experts: 1\n";
            y.training = "training:\n  global_batch_tokens: 1048576\n  micro_batch: 2\n"
                         "  sequence_length: 2048\n  parameter_bytes: 4\n"
                         "  activation_bytes: 4\n  gradient_bytes: 4\n"
                         "  gradient_reduce_fp32: true\n  recomputation: selective\n";
            y.layout = "layout:\n  dp: 4\n  tp: 2\n  pp: 2\n  virtual_stages: 2\n  cp: 2\n"
                       "  cp_style: ulysses\n  ep: 4\n  sequence_parallel: true\n"
                       "  zero_stage: 1\n  fsdp: none\n  rank_order: tp-cp-ep-dp-pp\n"
                       "  allow_tp_across_servers: true\n";
            y.cluster = "cluster:\n  gpus: 32\n  gpus_per_server: 8\n  gpu: b200\n"
                        "  mfu: 0.5\n  peak_flops: 2.0e15\n";
            y.extra = "collectives:\n  all_reduce: double-binary-tree\n"
                      "  all_gather: recursive-doubling\n  reduce_scatter: halving-doubling\n"
                      "  all_to_all: staggered\n  send_recv: direct\n"
                      "  broadcast: recursive-doubling\n";
            Scenario scenario;
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, scenario), "", "all");
            Ptr<TransformerSpec> m = scenario.GetModel();
            NS_TEST_EXPECT_MSG_EQ(m->GetGatedFfn(), false, "gated_ffn");
            NS_TEST_EXPECT_MSG_EQ(m->GetTiedEmbeddings(), true, "tied_embeddings");
            NS_TEST_EXPECT_MSG_EQ(m->GetSequenceLength(), 4096u, "sequence_length");
            NS_TEST_EXPECT_MSG_EQ(m->GetPositionEmbedding(), TransformerSpec::LEARNED, "positions");
            NS_TEST_EXPECT_MSG_EQ(m->GetNorm(), TransformerSpec::LAYER_NORM, "norm");
            NS_TEST_EXPECT_MSG_EQ(m->GetLinearBias(), true, "linear_bias");
            NS_TEST_EXPECT_MSG_EQ(m->GetExperts(), 16u, "experts");
            NS_TEST_EXPECT_MSG_EQ(m->GetTopK(), 4u, "top_k");
            NS_TEST_EXPECT_MSG_EQ(m->GetCapacityFactor(), 1.25, "capacity_factor");
            NS_TEST_EXPECT_MSG_EQ(m->GetMoeLayerInterval(), 2u, "moe_layer_interval");
            NS_TEST_EXPECT_MSG_EQ(m->GetSharedExperts(), 1u, "shared_experts");
            Ptr<TrainingConfig> t = scenario.GetTraining();
            NS_TEST_EXPECT_MSG_EQ(t->GetGlobalBatchSequences(*m), 512u, "1048576 / 2048");
            NS_TEST_EXPECT_MSG_EQ(t->GetMicroBatchSize(), 2u, "micro_batch");
            NS_TEST_EXPECT_MSG_EQ(t->GetEffectiveSequenceLength(*m), 2048u, "sequence_length");
            NS_TEST_EXPECT_MSG_EQ(t->GetParameterBytes(), 4u, "parameter_bytes");
            NS_TEST_EXPECT_MSG_EQ(t->GetActivationBytes(), 4u, "activation_bytes");
            NS_TEST_EXPECT_MSG_EQ(t->GetGradientBytes(), 4u, "gradient_bytes");
            NS_TEST_EXPECT_MSG_EQ(t->GetGradientReduceFp32(), true, "gradient_reduce_fp32");
            NS_TEST_EXPECT_MSG_EQ(t->GetRecomputation(), TrainingConfig::SELECTIVE, "recompute");
            Ptr<ParallelLayout> l = scenario.GetLayout();
            NS_TEST_EXPECT_MSG_EQ(l->GetDp(), 4u, "dp");
            NS_TEST_EXPECT_MSG_EQ(l->GetTp(), 2u, "tp");
            NS_TEST_EXPECT_MSG_EQ(l->GetPp(), 2u, "pp");
            NS_TEST_EXPECT_MSG_EQ(l->GetVirtualStages(), 2u, "virtual_stages");
            NS_TEST_EXPECT_MSG_EQ(l->GetCp(), 2u, "cp");
            NS_TEST_EXPECT_MSG_EQ(l->GetCpStyle(), ParallelLayout::ULYSSES, "cp_style");
            NS_TEST_EXPECT_MSG_EQ(l->GetEp(), 4u, "ep");
            NS_TEST_EXPECT_MSG_EQ(l->GetSequenceParallel(), true, "sequence_parallel");
            NS_TEST_EXPECT_MSG_EQ(l->GetZeroStage(), 1u, "zero_stage");
            NS_TEST_EXPECT_MSG_EQ(l->GetFsdp(), ParallelLayout::NONE, "fsdp");
            NS_TEST_EXPECT_MSG_EQ(l->GetRankOrder(), "tp-cp-ep-dp-pp", "rank_order");
            NS_TEST_EXPECT_MSG_EQ(l->GetAllowTpAcrossServers(), true, "allow_tp_across_servers");
            NS_TEST_EXPECT_MSG_EQ(l->GetGpusPerServer(), 8u, "gpus_per_server");
            NS_TEST_EXPECT_MSG_EQ(scenario.GetGpus(), 32u, "gpus");
            Ptr<GpuSpec> g = scenario.GetGpu();
            NS_TEST_EXPECT_MSG_EQ(g->GetName(), "b200", "gpu");
            NS_TEST_EXPECT_MSG_EQ(g->GetMfu(), 0.5, "mfu");
            NS_TEST_EXPECT_MSG_EQ(g->GetPeakFlops(), 2.0e15, "peak_flops overrides the preset");
            CheckAlgorithms(
                scenario,
                {
                    {CollectiveKind::ALL_REDUCE, "double-binary-tree", "all_reduce"},
                    {CollectiveKind::ALL_GATHER, "recursive-doubling", "all_gather"},
                    {CollectiveKind::REDUCE_SCATTER, "halving-doubling", "reduce_scatter"},
                    {CollectiveKind::ALL_TO_ALL, "staggered", "all_to_all"},
                    {CollectiveKind::SEND_RECV, "direct", "send_recv"},
                    {CollectiveKind::BROADCAST, "recursive-doubling", "broadcast"},
                });
        }

        // Defaults: the algorithms when there is no collectives section.
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(Yaml().Text(), NAME, scenario), "", "base");
        CheckAlgorithms(scenario,
                        {
                            {CollectiveKind::BROADCAST, "ring", "default broadcast"},
                            {CollectiveKind::ALL_REDUCE, "ring", "default all_reduce"},
                            {CollectiveKind::ALL_TO_ALL, "direct", "default all_to_all"},
                            {CollectiveKind::SEND_RECV, "direct", "default send_recv"},
                        });
    }
};

/**
 * @ingroup llm-fabric-tests
 * The topology section: every key reaches its GpuClusterTopology attribute, the defaults
 * without the section, and each class of error with its exact message.
 */
class ScenarioTopologyTestCase : public ScenarioTestCase
{
  public:
    ScenarioTopologyTestCase()
        : ScenarioTestCase("Scenario topology section: keys, defaults, errors")
    {
    }

  private:
    /**
     * @param topology a topology.
     * @param name an unsigned integer attribute.
     * @return its value.
     */
    static uint64_t GetUnsigned(Ptr<GpuClusterTopology> topology, const std::string& name)
    {
        UintegerValue value;
        topology->GetAttribute(name, value);
        return value.Get();
    }

    /**
     * @param topology a topology.
     * @param name a DataRate attribute.
     * @return its value in bit/s.
     */
    static uint64_t GetRate(Ptr<GpuClusterTopology> topology, const std::string& name)
    {
        DataRateValue value;
        topology->GetAttribute(name, value);
        return value.Get().GetBitRate();
    }

    /**
     * @param topology a topology.
     * @param name a Time attribute.
     * @return its value in ns.
     */
    static int64_t GetDelay(Ptr<GpuClusterTopology> topology, const std::string& name)
    {
        TimeValue value;
        topology->GetAttribute(name, value);
        return value.Get().GetNanoSeconds();
    }

    void DoRun() override
    {
        // Without the section: rail-optimized, one switch per rail for the 4 servers of 4 GPUs
        // of the base document; 4 rails x 1 leaf, non-blocking spines 4 x 400 / 400 = 4.
        Scenario base;
        NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(Yaml().Text(), NAME, base), "", "base");
        Ptr<GpuClusterTopology> t = base.GetTopology();
        NS_TEST_ASSERT_MSG_NE(t, nullptr, "a topology");
        NS_TEST_EXPECT_MSG_EQ(t->Describe(),
                              "rail-optimized, 4 servers x 4 NICs, 4 rails x 1 leaf, 4 spines, "
                              "400 Gb/s, 1:1",
                              "default topology, cluster recorded");
        NS_TEST_EXPECT_MSG_EQ(GetUnsigned(t, "ServersPerLeaf"), uint64_t{0}, "one leaf per rail");
        // 1040 GPUs (tp 4 x dp 260) of 8 = 130 servers, more than 64: leaves of 64 servers,
        // ceil(130 / 64) = 3 per rail.
        {
            Yaml y;
            y.layout = "layout:\n  tp: 4\n  dp: 260\n";
            y.training = "training:\n  global_batch_sequences: 260\n";
            y.cluster = "cluster:\n  gpus: 1040\n  gpus_per_server: 8\n";
            Scenario big;
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, big), "", "big");
            NS_TEST_EXPECT_MSG_EQ(GetUnsigned(big.GetTopology(), "ServersPerLeaf"),
                                  uint64_t{64},
                                  "leaves of 64 servers");
            NS_TEST_EXPECT_MSG_EQ(big.GetTopology()->GetServers(), 130u, "1040 / 8");
            NS_TEST_EXPECT_MSG_EQ(
                big.GetTopology()->GetNumberOfSwitches(GpuClusterTopology::LEAF_TIER),
                24u,
                "8 rails x 3 leaves");
        }

        // Every key.
        {
            Yaml y;
            const std::string keys = "topology:\n  kind: leaf-spine\n  nics_per_server: 2\n"
                                     "  planes: 2\n  servers_per_leaf: 2\n  spines: 3\n"
                                     "  fat_tree_k: 6\n  host_rate: 200Gbps\n"
                                     "  host_delay: 500ns\n  fabric_delay: 1.5us\n"
                                     "  core_rate: 100GB/s\n  core_delay: 0.002ms\n";
            // Tb/s is not a unit of DataRate.
            y.extra = keys + "  fabric_rate: 0.8Tbps\n";
            NS_TEST_EXPECT_MSG_EQ(LoadText(y.Text()),
                                  "t.yaml: topology.fabric_rate: expected a positive rate such "
                                  "as 400Gbps, got '0.8Tbps'",
                                  "unknown unit");
            y.extra = keys + "  fabric_rate: 800Gbps\n";
            Scenario scenario;
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, scenario), "", "all");
            t = scenario.GetTopology();
            NS_TEST_EXPECT_MSG_EQ(t->Describe().substr(0, 11), "leaf-spine,", "kind");
            NS_TEST_EXPECT_MSG_EQ(GetUnsigned(t, "NicsPerServer"), uint64_t{2}, "nics_per_server");
            NS_TEST_EXPECT_MSG_EQ(GetUnsigned(t, "Planes"), uint64_t{2}, "planes");
            NS_TEST_EXPECT_MSG_EQ(GetUnsigned(t, "ServersPerLeaf"), uint64_t{2}, "per leaf");
            NS_TEST_EXPECT_MSG_EQ(GetUnsigned(t, "Spines"), uint64_t{3}, "spines");
            NS_TEST_EXPECT_MSG_EQ(GetUnsigned(t, "FatTreeK"), uint64_t{6}, "fat_tree_k");
            NS_TEST_EXPECT_MSG_EQ(GetRate(t, "HostRate"), uint64_t{200000000000}, "host_rate");
            NS_TEST_EXPECT_MSG_EQ(GetDelay(t, "HostDelay"), int64_t{500}, "host_delay");
            NS_TEST_EXPECT_MSG_EQ(GetRate(t, "FabricRate"), uint64_t{800000000000}, "fabric");
            NS_TEST_EXPECT_MSG_EQ(GetDelay(t, "FabricDelay"), int64_t{1500}, "fabric_delay");
            // 100 GB/s = 800 Gb/s; 0.002 ms = 2000 ns.
            NS_TEST_EXPECT_MSG_EQ(GetRate(t, "CoreRate"), uint64_t{800000000000}, "core_rate");
            NS_TEST_EXPECT_MSG_EQ(GetDelay(t, "CoreDelay"), int64_t{2000}, "core_delay");
            // 4 servers x 2 NICs, 2 planes of 1 NIC per server; 2 servers per leaf: 2 leaves
            // and 3 spines per plane.
            NS_TEST_EXPECT_MSG_EQ(t->GetNumberOfSwitches(), 10u, "2 x (2 + 3)");
            NS_TEST_EXPECT_MSG_EQ(scenario.GetLayout()->GetGpusPerServer(), 4u, "cluster kept");
            // A section with the kind only: 16 NICs, the smallest fat-tree holding them is k = 4.
            y.extra = "topology:\n  kind: fat-tree\n";
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, scenario), "", "ft");
            NS_TEST_EXPECT_MSG_EQ(scenario.GetTopology()->GetFatTreeKInEffect(), 4u, "k");
        }

        CheckErrors();
    }

    /// The section's refusals and the checks against the cluster.
    void CheckErrors()
    {
        const LoadCase cases[] = {
            // Errors.
            {"bad kind",
             &Yaml::extra,
             "topology:\n  kind: torus\n",
             "t.yaml: topology.kind: unknown kind 'torus' (known: leaf-spine, "
             "rail-optimized, fat-tree)"},
            {"kind type",
             &Yaml::extra,
             "topology:\n  kind: [fat-tree]\n",
             "t.yaml: topology.kind: expected a name, got a sequence"},
            {"egress_stages is a list",
             &Yaml::extra,
             "topology:\n  egress_stages: ecn\n",
             "t.yaml: topology.egress_stages: expected a list of egress stage "
             "names, got 'ecn'"},
            {"unknown egress stage, by its index",
             &Yaml::extra,
             "topology:\n  egress_stages: [ecn, stamp]\n",
             "t.yaml: topology.egress_stages[1]: unknown egress stage "
             "'stamp' (known: ecn, ",
             true},
            {"unknown key",
             &Yaml::extra,
             "topology:\n  kind: fat-tree\n  radix: 64\n",
             "t.yaml: topology.radix: unknown key (known: kind, nics_per_server, "
             "planes, servers_per_leaf, spines, fat_tree_k, host_rate, "
             "host_delay, fabric_rate, fabric_delay, core_rate, core_delay, "
             "load_balancer, egress_stages)"},
            {"duplicate",
             &Yaml::extra,
             "topology:\n  spines: 2\n  spines: 4\n",
             "t.yaml: topology.spines: duplicate key"},
            {"section type",
             &Yaml::extra,
             "topology: fat-tree\n",
             "t.yaml: topology: expected a mapping, got 'fat-tree'"},
            {"planes range",
             &Yaml::extra,
             "topology:\n  planes: 0\n",
             "t.yaml: topology.planes: expected a positive integer, got '0'"},
            {"spines type",
             &Yaml::extra,
             "topology:\n  spines: two\n",
             "t.yaml: topology.spines: expected a non-negative integer, got "
             "'two'"},
            {"long delay",
             &Yaml::extra,
             "topology:\n  core_delay: 2s\n",
             "t.yaml: topology.core_delay: expected a delay of at most 1s, got "
             "'2s'"},

            // Values each fine on their own, inconsistent with the cluster (4 servers x 4 GPUs).
            {"nics",
             &Yaml::extra,
             "topology:\n  nics_per_server: 3\n",
             "t.yaml: topology: nics_per_server: 3 does not divide "
             "gpus_per_server 4"},
            {"planes",
             &Yaml::extra,
             "topology:\n  planes: 8\n",
             "t.yaml: topology: planes: 8 does not divide 4 NICs per server"},
            {"k too small",
             &Yaml::extra,
             "topology:\n  kind: fat-tree\n  fat_tree_k: 2\n",
             "t.yaml: topology: fat_tree_k: 2 holds 2 NICs, the cluster has 16"},
            {"odd k",
             &Yaml::extra,
             "topology:\n  kind: fat-tree\n  fat_tree_k: 7\n",
             "t.yaml: topology: fat_tree_k: 7 must be even and at least 2"},
        };
        CheckLoads(cases);

        Yaml y;
        {
            Scenario withStage;
            y.extra = "topology:\n  egress_stages: [ecn]\n";
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, withStage), "", "ecn");
            NS_TEST_ASSERT_MSG_EQ(withStage.GetNetwork()->GetEgressStages().size(), 1u, "one");
            NS_TEST_EXPECT_MSG_EQ(withStage.GetNetwork()->GetEgressStages()[0].GetName(),
                                  "ns3::EcnMarker",
                                  "by alias");
        }

        // Malformed rates and delays: the message names the key and the form it expects.
        const struct
        {
            const char* key;                 //!< The topology key.
            const char* expects;             //!< The form the message asks for.
            std::vector<const char*> values; //!< The values refused.
        } malformed[] = {
            {"host_rate",
             "a positive rate such as 400Gbps",
             {"fast", "400", "400 Gbps", "0Gbps", "-400Gbps", "Gbps"}},
            {"fabric_delay",
             "a non-negative delay such as 1us",
             {"1", "1 us", "1parsec", "us", "-1us", "1.2.3us"}},
        };

        for (const auto& row : malformed)
        {
            for (const char* value : row.values)
            {
                y.extra = std::string("topology:\n  ") + row.key + ": " + value + "\n";
                NS_TEST_EXPECT_MSG_EQ(LoadText(y.Text()),
                                      std::string("t.yaml: topology.") + row.key + ": expected " +
                                          row.expects + ", got '" + value + "'",
                                      row.key << ": " << value);
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The network section: the NetworkConfig defaults without it, every key reaching its attribute,
 * each class of bad value with its exact message, and NetworkConfig::Check's consistency
 * problems reported against the section.
 */
class ScenarioNetworkTestCase : public ScenarioTestCase
{
  public:
    ScenarioNetworkTestCase()
        : ScenarioTestCase("Scenario network section: keys, defaults, errors, checks")
    {
    }

  private:
    /**
     * @param section the body of the network section.
     * @return the message of loading the base document with that section.
     */
    static std::string LoadNetwork(const std::string& section)
    {
        Yaml y;
        y.extra = "network:\n" + section;
        return LoadText(y.Text());
    }

    /// The values of a network configuration's getters.
    struct NetworkValues
    {
        uint32_t mtu;                            //!< GetMtu.
        uint32_t channels;                       //!< GetChannels.
        const char* cc;                          //!< GetCongestionControl's name.
        const char* loadBalancer;                //!< GetLoadBalancer's name.
        NetworkConfig::DcqcnProfileKind profile; //!< GetDcqcnProfile.
        const char* profileName;                 //!< GetDcqcnProfileName.
        NetworkConfig::RecoveryKind recovery;    //!< GetRecovery.
        const char* recoveryName;                //!< GetRecoveryName.
        bool pfc;                                //!< GetPfc.
        uint32_t bufferBytes;                    //!< GetBufferBytes.
        uint32_t kminBytes;                      //!< GetKminBytes.
        uint32_t kmaxBytes;                      //!< GetKmaxBytes.
        double pmax;                             //!< GetPmax.
    };

    /**
     * Check every getter of a network configuration, with the label in each message.
     * @param label the configuration checked.
     * @param n the configuration.
     * @param e its expected values.
     */
    void CheckNetwork(const std::string& label, Ptr<NetworkConfig> n, const NetworkValues& e)
    {
        NS_TEST_EXPECT_MSG_EQ(n->GetMtu(), e.mtu, label << ": mtu");
        NS_TEST_EXPECT_MSG_EQ(n->GetChannels(), e.channels, label << ": channels");
        NS_TEST_EXPECT_MSG_EQ(n->GetCongestionControl().GetName(), e.cc, label << ": cc");
        NS_TEST_EXPECT_MSG_EQ(n->GetLoadBalancer().GetName(),
                              e.loadBalancer,
                              label << ": load balancer");
        NS_TEST_EXPECT_MSG_EQ(n->GetDcqcnProfile(), e.profile, label << ": profile");
        NS_TEST_EXPECT_MSG_EQ(n->GetDcqcnProfileName(), e.profileName, label << ": profile name");
        NS_TEST_EXPECT_MSG_EQ(n->GetRecovery(), e.recovery, label << ": recovery");
        NS_TEST_EXPECT_MSG_EQ(n->GetRecoveryName(), e.recoveryName, label << ": recovery name");
        NS_TEST_EXPECT_MSG_EQ(n->GetPfc(), e.pfc, label << ": pfc");
        NS_TEST_EXPECT_MSG_EQ(n->GetBufferBytes(), e.bufferBytes, label << ": buffer_bytes");
        NS_TEST_EXPECT_MSG_EQ(n->GetKminBytes(), e.kminBytes, label << ": kmin_bytes");
        NS_TEST_EXPECT_MSG_EQ(n->GetKmaxBytes(), e.kmaxBytes, label << ": kmax_bytes");
        NS_TEST_EXPECT_MSG_EQ(n->GetPmax(), e.pmax, label << ": pmax");
    }

    void DoRun() override
    {
        // Without the section: the defaults of the brief. 32 MiB = 32 x 1048576 = 33554432 B;
        // Kmin 100 KiB = 102400 B; Kmax 400 KiB = 409600 B.
        const NetworkValues defaults{4096,
                                     2,
                                     "ns3::Dcqcn",
                                     "ns3::EcmpLoadBalancer",
                                     NetworkConfig::MLX5,
                                     "mlx5",
                                     NetworkConfig::GO_BACK_N,
                                     "GoBackN",
                                     true,
                                     33554432,
                                     102400,
                                     409600,
                                     0.2};
        NS_TEST_EXPECT_MSG_EQ(CreateObject<NetworkConfig>()->Check(), "", "defaults consistent");

        // The configurations loaded: without the section (the base document); an empty section,
        // a mapping of no keys only when written {} (the defaults again); every key, each with a
        // value other than its default (the load balancer is a key of the topology section: the
        // default).
        const struct
        {
            const char* name;     //!< The row's name, in the assertion messages.
            const char* section;  //!< The network section.
            NetworkValues values; //!< The values of its configuration.
        } configurations[] = {
            {"default", "", defaults},
            {"{}: default", "network: {}\n", defaults},
            {"every key",
             "network:\n  mtu: 1024\n  channels: 8\n  congestion_control: fixed\n"
             "  dcqcn_profile: sigcomm2015\n  recovery: selective-repeat\n"
             "  pfc: false\n  buffer_bytes: 16777216\n  kmin_bytes: 5120\n"
             "  kmax_bytes: 204800\n  pmax: 0.01\n",
             {1024,
              8,
              "ns3::RdmaCcFixedRate",
              "ns3::EcmpLoadBalancer",
              NetworkConfig::SIGCOMM2015,
              "sigcomm2015",
              NetworkConfig::SELECTIVE_REPEAT,
              "SelectiveRepeat",
              false,
              16777216,
              5120,
              204800,
              0.01}},
        };

        Scenario loaded[3];
        for (std::size_t i = 0; i < 3; ++i)
        {
            Yaml y;
            y.extra = configurations[i].section;
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, loaded[i]),
                                  "",
                                  configurations[i].name);
            NS_TEST_ASSERT_MSG_NE(loaded[i].GetNetwork(),
                                  nullptr,
                                  configurations[i].name << ": a network configuration");
            CheckNetwork(configurations[i].name, loaded[i].GetNetwork(), configurations[i].values);
        }
        NS_TEST_EXPECT_MSG_NE(loaded[1].GetNetwork(), loaded[0].GetNetwork(), "own object");

        {
            const Scenario& scenario = loaded[2];
            Ptr<NetworkConfig> n = scenario.GetNetwork();
            // The values went through the attributes.
            UintegerValue mtu;
            n->GetAttribute("Mtu", mtu);
            NS_TEST_EXPECT_MSG_EQ(mtu.Get(), uint64_t{1024}, "Mtu attribute");
            StringValue recovery;
            n->GetAttribute("Recovery", recovery);
            NS_TEST_EXPECT_MSG_EQ(recovery.Get(), "selective-repeat", "Recovery attribute");
            // The section does not disturb the other sections.
            NS_TEST_EXPECT_MSG_EQ(scenario.GetLayout()->GetTp(), 2u, "layout kept");

            // Copies share the objects, the network configuration among them.
            Scenario copy(scenario);
            NS_TEST_EXPECT_MSG_EQ(copy.GetNetwork(), scenario.GetNetwork(), "copy constructor");
            Scenario assigned;
            NS_TEST_EXPECT_MSG_NE(assigned.GetNetwork(), scenario.GetNetwork(), "before");
            assigned = scenario;
            NS_TEST_EXPECT_MSG_EQ(assigned.GetNetwork(), scenario.GetNetwork(), "assignment");
            NS_TEST_EXPECT_MSG_EQ(assigned.GetNetwork()->GetMtu(), 1024u, "assigned mtu");
        }

        // Each name of each choice maps to its own value.
        using NameGetter = std::string (NetworkConfig::*)() const;

        const struct
        {
            const char* yaml;     //!< The section's body.
            NameGetter getter;    //!< The getter of the key's name.
            const char* expected; //!< The name it gives.
        } choices[] = {
            {"  dcqcn_profile: mlx5\n", &NetworkConfig::GetDcqcnProfileName, "mlx5"},
            {"  dcqcn_profile: sigcomm2015\n", &NetworkConfig::GetDcqcnProfileName, "sigcomm2015"},
            {"  dcqcn_profile: simai\n", &NetworkConfig::GetDcqcnProfileName, "simai"},
            {"  recovery: go-back-n\n", &NetworkConfig::GetRecoveryName, "GoBackN"},
            {"  recovery: selective-repeat\n", &NetworkConfig::GetRecoveryName, "SelectiveRepeat"},
        };

        for (const auto& choice : choices)
        {
            Yaml y;
            y.extra = std::string("network:\n") + choice.yaml;
            Scenario scenario;
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, scenario),
                                  "",
                                  choice.yaml);
            std::string name = (*scenario.GetNetwork().*choice.getter)();
            NS_TEST_EXPECT_MSG_EQ(name, choice.expected, choice.yaml);
        }
        // The attribute's own names are the YAML names (--ns3::NetworkConfig::Recovery=...).
        Ptr<NetworkConfig> n = CreateObject<NetworkConfig>();
        NS_TEST_EXPECT_MSG_EQ(n->SetAttributeFailSafe("Recovery", StringValue("selective-repeat")),
                              true,
                              "Recovery by name");
        NS_TEST_EXPECT_MSG_EQ(n->GetRecoveryName(), "SelectiveRepeat", "Recovery by name");
        NS_TEST_EXPECT_MSG_EQ(n->SetAttributeFailSafe("DcqcnProfile", StringValue("sigcomm2015")),
                              true,
                              "DcqcnProfile by name");
        NS_TEST_EXPECT_MSG_EQ(n->GetDcqcnProfileName(), "sigcomm2015", "DcqcnProfile by name");

        CheckClassNames();
        CheckRefusals();
        CheckConsistency();
    }

    /// The congestion control and the load balancer, named by alias or TypeId name; refused names.
    void CheckClassNames()
    {
        // The congestion control and the load balancer are named by alias or TypeId name.
        const struct
        {
            const char* yaml;     //!< The section and key.
            bool cc;              //!< Whether it names the congestion control.
            const char* expected; //!< The TypeId it names.
        } classes[] = {
            {"network:\n  congestion_control: none\n", true, "ns3::RdmaCcNone"},
            {"network:\n  congestion_control: fixed\n", true, "ns3::RdmaCcFixedRate"},
            {"network:\n  congestion_control: dcqcn\n", true, "ns3::Dcqcn"},
            {"network:\n  congestion_control: ns3::Dcqcn\n", true, "ns3::Dcqcn"},
            {"network:\n  congestion_control: dctcp\n", true, "ns3::Dctcp"},
            {"network:\n  congestion_control: timely\n", true, "ns3::Timely"},
            {"network:\n  congestion_control: swift\n", true, "ns3::Swift"},
            {"network:\n  congestion_control: ns3::Swift\n", true, "ns3::Swift"},
            {"topology:\n  load_balancer: spray\n", false, "ns3::SprayLoadBalancer"},
            {"topology:\n  load_balancer: ns3::EcmpLoadBalancer\n", false, "ns3::EcmpLoadBalancer"},
        };

        for (const auto& entry : classes)
        {
            Yaml y;
            y.extra = entry.yaml;
            Scenario scenario;
            NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(y.Text(), NAME, scenario),
                                  "",
                                  entry.yaml);
            Ptr<NetworkConfig> network = scenario.GetNetwork();
            TypeId named = entry.cc ? network->GetCongestionControl() : network->GetLoadBalancer();
            NS_TEST_EXPECT_MSG_EQ(named.GetName(), entry.expected, entry.yaml);
        }
        for (const char* name : {"bbr", "ns3::RingCollective"})
        {
            // Unknown, or a class of another extension point: the line lists the aliases, sorted
            // (dctcp sorts after dcqcn; the test binary registers test-only ones too, so only
            // the first are checked).
            std::string message = LoadNetwork(std::string("  congestion_control: ") + name + "\n");
            std::string expected = std::string("t.yaml: network.congestion_control: unknown "
                                               "congestion control '") +
                                   name + "' (known: dcqcn, dctcp, fixed, hpcc, none, ";
            NS_TEST_EXPECT_MSG_EQ(message.rfind(expected, 0), 0, message);
            NS_TEST_EXPECT_MSG_NE(message.find("or the TypeId name of a subclass of "
                                               "ns3::RdmaCongestionOps)"),
                                  std::string::npos,
                                  message);
        }
    }

    /// The section's refusals: wrong types, out of range, unknown names and keys.
    void CheckRefusals()
    {
        const LoadCase cases[] = {
            // Wrong types.
            {"mtu word",
             &Yaml::extra,
             "network:\n  mtu: big\n",
             "t.yaml: network.mtu: expected a positive integer, got 'big'"},
            {"mtu float",
             &Yaml::extra,
             "network:\n  mtu: 4096.0\n",
             "t.yaml: network.mtu: expected a positive integer, got '4096.0'"},
            {"channels sequence",
             &Yaml::extra,
             "network:\n  channels: [2]\n",
             "t.yaml: network.channels: expected a positive integer, got a "
             "sequence"},
            {"pfc",
             &Yaml::extra,
             "network:\n  pfc: on\n",
             "t.yaml: network.pfc: expected true or false, got 'on'"},
            {"pmax word",
             &Yaml::extra,
             "network:\n  pmax: high\n",
             "t.yaml: network.pmax: expected a number, got 'high'"},
            {"negative kmin",
             &Yaml::extra,
             "network:\n  kmin_bytes: -1\n",
             "t.yaml: network.kmin_bytes: expected a non-negative integer, got "
             "'-1'"},
            {"empty kmax",
             &Yaml::extra,
             "network:\n  kmax_bytes:\n",
             "t.yaml: network.kmax_bytes: expected a non-negative integer, got "
             "nothing"},
            {"section type",
             &Yaml::extra,
             "network: dcqcn\n",
             "t.yaml: network: expected a mapping, got 'dcqcn'"},

            // Out of the attributes' ranges.
            {"mtu above",
             &Yaml::extra,
             "network:\n  mtu: 9000\n",
             "t.yaml: network.mtu: expected an integer from 256 to 4096, got "
             "'9000'"},
            {"mtu below",
             &Yaml::extra,
             "network:\n  mtu: 128\n",
             "t.yaml: network.mtu: expected an integer from 256 to 4096, got "
             "'128'"},
            {"no channel",
             &Yaml::extra,
             "network:\n  channels: 0\n",
             "t.yaml: network.channels: expected a positive integer, got '0'"},
            {"channels above",
             &Yaml::extra,
             "network:\n  channels: 65\n",
             "t.yaml: network.channels: expected an integer from 1 to 64, got "
             "'65'"},
            {"no buffer",
             &Yaml::extra,
             "network:\n  buffer_bytes: 0\n",
             "t.yaml: network.buffer_bytes: expected a positive integer, got '0'"},
            // 2^32 = 4294967296 does not fit the uint32 attribute.
            {"kmax above uint32",
             &Yaml::extra,
             "network:\n  kmax_bytes: 4294967296\n",
             "t.yaml: network.kmax_bytes: expected an integer from 0 to "
             "4294967295, got '4294967296'"},
            {"pmax above",
             &Yaml::extra,
             "network:\n  pmax: 1.5\n",
             "t.yaml: network.pmax: expected a number from 0 to 1, got '1.5'"},
            {"pmax below",
             &Yaml::extra,
             "network:\n  pmax: -0.1\n",
             "t.yaml: network.pmax: expected a number from 0 to 1, got '-0.1'"},

            // Unknown choices, keys; duplicates.
            // Aliases are case-sensitive (the registered list may hold test-only classes too).
            {"names are case-sensitive",
             &Yaml::extra,
             "network:\n  congestion_control: DCQCN\n",
             "t.yaml: network.congestion_control: unknown congestion "
             "control 'DCQCN' (known: dcqcn, dctcp, fixed, hpcc, none, ",
             true},
            {"profile",
             &Yaml::extra,
             "network:\n  dcqcn_profile: cx7\n",
             "t.yaml: network.dcqcn_profile: expected one of mlx5, sigcomm2015, "
             "simai, got 'cx7'"},
            {"recovery",
             &Yaml::extra,
             "network:\n  recovery: GoBackN\n",
             "t.yaml: network.recovery: expected one of go-back-n, "
             "selective-repeat, got 'GoBackN'"},
            {"unknown key",
             &Yaml::extra,
             "network:\n  ecn: true\n",
             "t.yaml: network.ecn: unknown key (known: mtu, channels, "
             "congestion_control, dcqcn_profile, recovery, pfc, buffer_bytes, "
             "kmin_bytes, kmax_bytes, pmax)"},
            {"duplicate key",
             &Yaml::extra,
             "network:\n  mtu: 1024\n  mtu: 2048\n",
             "t.yaml: network.mtu: duplicate key"},
            {"duplicate section",
             &Yaml::extra,
             "network:\n  mtu: 1024\nnetwork:\n  mtu: 2048\n",
             "t.yaml: network: duplicate section"},
        };
        CheckLoads(cases);
    }

    /// NetworkConfig::Check's consistency problems, reported against the section or directly.
    void CheckConsistency()
    {
        const LoadCase cases[] = {
            // Consistency (NetworkConfig::Check), reported against the section.
            {"kmin above kmax",
             &Yaml::extra,
             "network:\n  kmin_bytes: 500000\n",
             "t.yaml: network: kmin_bytes (500000) is above kmax_bytes (409600)"},
            {"kmax above buffer",
             &Yaml::extra,
             "network:\n  kmax_bytes: 40000000\n",
             "t.yaml: network: kmax_bytes (40000000) exceeds buffer_bytes "
             "(33554432)"},
            {"buffer below the default kmax",
             &Yaml::extra,
             "network:\n  buffer_bytes: 300000\n",
             "t.yaml: network: kmax_bytes (409600) exceeds buffer_bytes "
             "(300000)"},
            {"Ethernet-sized mtu",
             &Yaml::extra,
             "network:\n  mtu: 1500\n",
             "t.yaml: network: mtu (1500) is not an InfiniBand MTU (256, 512, "
             "1024, 2048, 4096)"},
            {"buffer below a packet",
             &Yaml::extra,
             "network:\n  buffer_bytes: 2048\n  kmin_bytes: 0\n"
             "  kmax_bytes: 1024\n",
             "t.yaml: network: buffer_bytes (2048) cannot hold a packet of mtu "
             "(4096)"},
            // The boundaries are accepted: Kmin = Kmax = Buffer = Mtu, Pmax 0 and 1.
            {"equal thresholds",
             &Yaml::extra,
             "network:\n  buffer_bytes: 4096\n  kmin_bytes: 4096\n"
             "  kmax_bytes: 4096\n  pmax: 0\n",
             ""},
            {"smallest mtu", &Yaml::extra, "network:\n  mtu: 256\n  pmax: 1\n", ""},
        };
        CheckLoads(cases);

        // The other sections' checks come first: a layout problem hides a network one.
        Yaml y;
        y.cluster = "cluster:\n  gpus: 32\n  gpus_per_server: 4\n";
        y.extra = "network:\n  kmin_bytes: 500000\n";
        NS_TEST_EXPECT_MSG_EQ(LoadText(y.Text()),
                              "t.yaml: layout: tp 2 x cp 1 x pp 2 x dp 4 = 16 != 32 GPUs",
                              "layout first");
        // A failed check leaves the output unchanged.
        Scenario kept;
        NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(Yaml().Text(), NAME, kept), "", "base");
        Ptr<NetworkConfig> before = kept.GetNetwork();
        y = Yaml();
        y.extra = "network:\n  mtu: 1024\n  kmin_bytes: 500000\n";
        NS_TEST_EXPECT_MSG_NE(Scenario::LoadFromString(y.Text(), NAME, kept), "", "error");
        NS_TEST_EXPECT_MSG_EQ(kept.GetNetwork(), before, "unchanged on error");
        NS_TEST_EXPECT_MSG_EQ(kept.GetNetwork()->GetMtu(), 4096u, "unchanged on error");

        // Check on an object configured directly, as a program would.
        Ptr<NetworkConfig> n = CreateObject<NetworkConfig>();
        n->SetAttribute("KminBytes", UintegerValue(409601));
        NS_TEST_EXPECT_MSG_EQ(n->Check(),
                              "kmin_bytes (409601) is above kmax_bytes (409600)",
                              "one byte above");
        n->SetAttribute("KminBytes", UintegerValue(409600));
        NS_TEST_EXPECT_MSG_EQ(n->Check(), "", "Kmin = Kmax");
        n->SetAttribute("Mtu", UintegerValue(2049));
        NS_TEST_EXPECT_MSG_EQ(n->Check(),
                              "mtu (2049) is not an InfiniBand MTU (256, 512, 1024, 2048, 4096)",
                              "mtu one above a power of two");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The Scenario test suite.
 */
class ScenarioTestSuite : public TestSuite
{
  public:
    /** Register the test cases. */
    ScenarioTestSuite()
        : TestSuite("llm-fabric-scenario", Type::UNIT)
    {
        AddTestCase(new ScenarioFilesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ScenarioErrorsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ScenarioValuesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ScenarioTopologyTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ScenarioNetworkTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance registering the suite.
static ScenarioTestSuite g_scenarioTestSuite;

} // namespace tests
} // namespace llmfabric
