/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-keys.h"

#include "gpu-cluster-topology.h"
#include "network-config.h"

#include "ns3/compute-model.h"
#include "ns3/egress-stage.h"
#include "ns3/gpu-spec.h"
#include "ns3/load-balancer.h"
#include "ns3/parallel-layout.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"

namespace ns3
{
namespace scenariokeys
{

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @param positive require at least 1.
 * @return an unsigned integer key.
 */
KeySpec
Unsigned(const char* key, Target target, const char* attribute, bool positive)
{
    return {key, target, attribute, ValueKind::UNSIGNED, positive, {}, nullptr};
}

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @return a boolean key.
 */
KeySpec
Boolean(const char* key, Target target, const char* attribute)
{
    return {key, target, attribute, ValueKind::BOOLEAN, false, {}, nullptr};
}

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @return a floating-point key.
 */
KeySpec
Number(const char* key, Target target, const char* attribute)
{
    return {key, target, attribute, ValueKind::NUMBER, false, {}, nullptr};
}

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @return a string key.
 */
KeySpec
Text(const char* key, Target target, const char* attribute)
{
    return {key, target, attribute, ValueKind::TEXT, false, {}, nullptr};
}

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @return a data rate key.
 */
KeySpec
Rate(const char* key, Target target, const char* attribute)
{
    return {key, target, attribute, ValueKind::RATE, false, {}, nullptr};
}

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @return a delay key.
 */
KeySpec
Delay(const char* key, Target target, const char* attribute)
{
    return {key, target, attribute, ValueKind::DELAY, false, {}, nullptr};
}

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @param choices the names and values.
 * @param makeEnum makes the attribute value.
 * @return an enumerated key.
 */
KeySpec
OneOf(const char* key,
      Target target,
      const char* attribute,
      std::vector<Choice> choices,
      EnumMaker makeEnum)
{
    return {key, target, attribute, ValueKind::CHOICE, false, std::move(choices), makeEnum};
}

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @param base the extension point.
 * @param what what the key names, for messages ("congestion control").
 * @return a key naming a subclass of base (TypeIdAlias).
 */
KeySpec
Subclass(const char* key, Target target, const char* attribute, BaseOf base, const char* what)
{
    return {key, target, attribute, ValueKind::SUBCLASS, false, {}, nullptr, base, what};
}

/// @return the keys of the model section.
const std::vector<KeySpec>&
ModelKeys()
{
    static const std::vector<KeySpec> keys = {
        Text("preset", Target::NONE, ""),
        Unsigned("layers", Target::MODEL, "Layers"),
        Unsigned("hidden_size", Target::MODEL, "HiddenSize"),
        Unsigned("heads", Target::MODEL, "Heads"),
        Unsigned("kv_heads", Target::MODEL, "KvHeads"),
        Unsigned("ffn_hidden_size", Target::MODEL, "FfnHiddenSize"),
        Boolean("gated_ffn", Target::MODEL, "GatedFfn"),
        Unsigned("vocabulary_size", Target::MODEL, "VocabularySize"),
        Boolean("tied_embeddings", Target::MODEL, "TiedEmbeddings"),
        Unsigned("sequence_length", Target::MODEL, "SequenceLength"),
        OneOf("position_embedding",
              Target::MODEL,
              "PositionEmbedding",
              {{"learned", TransformerSpec::LEARNED}, {"rope", TransformerSpec::ROPE}},
              &MakeEnumValue<TransformerSpec::PositionEmbeddingKind>),
        OneOf(
            "norm",
            Target::MODEL,
            "Norm",
            {{"layer_norm", TransformerSpec::LAYER_NORM}, {"rms_norm", TransformerSpec::RMS_NORM}},
            &MakeEnumValue<TransformerSpec::NormKind>),
        Boolean("linear_bias", Target::MODEL, "LinearBias"),
        Unsigned("experts", Target::MODEL, "Experts"),
        Unsigned("top_k", Target::MODEL, "TopK"),
        Number("capacity_factor", Target::MODEL, "CapacityFactor"),
        Unsigned("moe_layer_interval", Target::MODEL, "MoeLayerInterval"),
        Unsigned("shared_experts", Target::MODEL, "SharedExperts"),
    };
    return keys;
}

/// @return the keys of the training section.
const std::vector<KeySpec>&
TrainingKeys()
{
    static const std::vector<KeySpec> keys = {
        Unsigned("global_batch_sequences", Target::TRAINING, "GlobalBatchSequences", true),
        Unsigned("global_batch_tokens", Target::TRAINING, "GlobalBatchTokens", true),
        Unsigned("micro_batch", Target::TRAINING, "MicroBatchSize"),
        Unsigned("sequence_length", Target::TRAINING, "SequenceLength"),
        Unsigned("parameter_bytes", Target::TRAINING, "ParameterBytes"),
        Unsigned("activation_bytes", Target::TRAINING, "ActivationBytes"),
        Unsigned("gradient_bytes", Target::TRAINING, "GradientBytes"),
        Boolean("gradient_reduce_fp32", Target::TRAINING, "GradientReduceFp32"),
        OneOf("recomputation",
              Target::TRAINING,
              "Recomputation",
              {{"none", TrainingConfig::NONE},
               {"selective", TrainingConfig::SELECTIVE},
               {"full", TrainingConfig::FULL}},
              &MakeEnumValue<TrainingConfig::RecomputationKind>),
    };
    return keys;
}

/// @return the keys of the layout section.
const std::vector<KeySpec>&
LayoutKeys()
{
    static const std::vector<KeySpec> keys = {
        Unsigned("dp", Target::LAYOUT, "Dp"),
        Unsigned("tp", Target::LAYOUT, "Tp"),
        Unsigned("pp", Target::LAYOUT, "Pp"),
        Unsigned("virtual_stages", Target::LAYOUT, "VirtualStages"),
        Unsigned("cp", Target::LAYOUT, "Cp"),
        OneOf("cp_style",
              Target::LAYOUT,
              "CpStyle",
              {{"ring", ParallelLayout::RING_ALLGATHER}, {"ulysses", ParallelLayout::ULYSSES}},
              &MakeEnumValue<ParallelLayout::CpStyle>),
        Unsigned("ep", Target::LAYOUT, "Ep"),
        Boolean("sequence_parallel", Target::LAYOUT, "SequenceParallel"),
        Unsigned("zero_stage", Target::LAYOUT, "ZeroStage"),
        OneOf("fsdp",
              Target::LAYOUT,
              "Fsdp",
              {{"none", ParallelLayout::NONE},
               {"full_shard", ParallelLayout::FULL_SHARD},
               {"shard_grad_op", ParallelLayout::SHARD_GRAD_OP},
               {"hybrid_shard", ParallelLayout::HYBRID_SHARD}},
              &MakeEnumValue<ParallelLayout::FsdpKind>),
        Text("rank_order", Target::LAYOUT, "RankOrder"),
        Boolean("allow_tp_across_servers", Target::LAYOUT, "AllowTpAcrossServers"),
    };
    return keys;
}

/// @return the keys of the cluster section.
const std::vector<KeySpec>&
ClusterKeys()
{
    static const std::vector<KeySpec> keys = {
        Unsigned("gpus", Target::NONE, "", true),
        Unsigned("gpus_per_server", Target::LAYOUT, "GpusPerServer"),
        Text("gpu", Target::NONE, ""),
        Number("mfu", Target::GPU, "Mfu"),
        Number("peak_flops", Target::GPU, "PeakFlops"),
    };
    return keys;
}

/// @return the keys of the topology section.
const std::vector<KeySpec>&
TopologyKeys()
{
    static const std::vector<KeySpec> keys = {
        Text("kind", Target::NONE, ""),
        Unsigned("nics_per_server", Target::TOPOLOGY, "NicsPerServer"),
        Unsigned("planes", Target::TOPOLOGY, "Planes"),
        Unsigned("servers_per_leaf", Target::TOPOLOGY, "ServersPerLeaf"),
        Unsigned("spines", Target::TOPOLOGY, "Spines"),
        Unsigned("fat_tree_k", Target::TOPOLOGY, "FatTreeK"),
        Rate("host_rate", Target::TOPOLOGY, "HostRate"),
        Delay("host_delay", Target::TOPOLOGY, "HostDelay"),
        Rate("fabric_rate", Target::TOPOLOGY, "FabricRate"),
        Delay("fabric_delay", Target::TOPOLOGY, "FabricDelay"),
        Rate("core_rate", Target::TOPOLOGY, "CoreRate"),
        Delay("core_delay", Target::TOPOLOGY, "CoreDelay"),
        Subclass("load_balancer",
                 Target::NETWORK,
                 "LoadBalancer",
                 &LoadBalancer::GetTypeId,
                 "load balancer"),
        Text("egress_stages", Target::NONE, ""),
    };
    return keys;
}

/// @return the keys of the network section.
const std::vector<KeySpec>&
NetworkKeys()
{
    static const std::vector<KeySpec> keys = {
        Unsigned("mtu", Target::NETWORK, "Mtu"),
        Unsigned("channels", Target::NETWORK, "Channels"),
        Subclass("congestion_control",
                 Target::NETWORK,
                 "CongestionControl",
                 &RdmaCongestionOps::GetTypeId,
                 "congestion control"),
        OneOf("dcqcn_profile",
              Target::NETWORK,
              "DcqcnProfile",
              {{"mlx5", NetworkConfig::MLX5}, {"sigcomm2015", NetworkConfig::SIGCOMM2015}},
              &MakeEnumValue<NetworkConfig::DcqcnProfileKind>),
        OneOf("recovery",
              Target::NETWORK,
              "Recovery",
              {{"go-back-n", NetworkConfig::GO_BACK_N},
               {"selective-repeat", NetworkConfig::SELECTIVE_REPEAT}},
              &MakeEnumValue<NetworkConfig::RecoveryKind>),
        Boolean("pfc", Target::NETWORK, "Pfc"),
        Unsigned("buffer_bytes", Target::NETWORK, "BufferBytes"),
        Unsigned("kmin_bytes", Target::NETWORK, "KminBytes"),
        Unsigned("kmax_bytes", Target::NETWORK, "KmaxBytes"),
        Number("pmax", Target::NETWORK, "Pmax"),
    };
    return keys;
}

/// The model keys required without a preset, in the order they are reported.
const char* const REQUIRED_MODEL_KEYS[5] = {"layers",
                                            "hidden_size",
                                            "heads",
                                            "ffn_hidden_size",
                                            "vocabulary_size"};

/// The keys of the collectives section.
const std::vector<CollectiveKey>&
CollectiveKeys()
{
    static const std::vector<CollectiveKey> keys = {
        {"all_reduce", CollectiveKind::ALL_REDUCE},
        {"all_gather", CollectiveKind::ALL_GATHER},
        {"reduce_scatter", CollectiveKind::REDUCE_SCATTER},
        {"all_to_all", CollectiveKind::ALL_TO_ALL},
        {"send_recv", CollectiveKind::SEND_RECV},
        {"broadcast", CollectiveKind::BROADCAST},
    };
    return keys;
}

} // namespace scenariokeys
} // namespace ns3
