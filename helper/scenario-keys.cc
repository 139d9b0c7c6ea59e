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

KeySpec
Key(ValueKind kind, const char* key, Target target, const char* attribute, bool positive)
{
    return {key, target, attribute, kind, positive, {}, nullptr};
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
        Key(ValueKind::TEXT, "preset", Target::NONE, ""),
        Key(ValueKind::UNSIGNED, "layers", Target::MODEL, "Layers"),
        Key(ValueKind::UNSIGNED, "hidden_size", Target::MODEL, "HiddenSize"),
        Key(ValueKind::UNSIGNED, "heads", Target::MODEL, "Heads"),
        Key(ValueKind::UNSIGNED, "kv_heads", Target::MODEL, "KvHeads"),
        Key(ValueKind::UNSIGNED, "ffn_hidden_size", Target::MODEL, "FfnHiddenSize"),
        Key(ValueKind::BOOLEAN, "gated_ffn", Target::MODEL, "GatedFfn"),
        Key(ValueKind::UNSIGNED, "vocabulary_size", Target::MODEL, "VocabularySize"),
        Key(ValueKind::BOOLEAN, "tied_embeddings", Target::MODEL, "TiedEmbeddings"),
        Key(ValueKind::UNSIGNED, "sequence_length", Target::MODEL, "SequenceLength"),
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
        Key(ValueKind::BOOLEAN, "linear_bias", Target::MODEL, "LinearBias"),
        Key(ValueKind::UNSIGNED, "experts", Target::MODEL, "Experts"),
        Key(ValueKind::UNSIGNED, "top_k", Target::MODEL, "TopK"),
        Key(ValueKind::NUMBER, "capacity_factor", Target::MODEL, "CapacityFactor"),
        Key(ValueKind::UNSIGNED, "moe_layer_interval", Target::MODEL, "MoeLayerInterval"),
        Key(ValueKind::UNSIGNED, "shared_experts", Target::MODEL, "SharedExperts"),
    };
    return keys;
}

/// @return the keys of the training section.
const std::vector<KeySpec>&
TrainingKeys()
{
    static const std::vector<KeySpec> keys = {
        Key(ValueKind::UNSIGNED,
            "global_batch_sequences",
            Target::TRAINING,
            "GlobalBatchSequences",
            true),
        Key(ValueKind::UNSIGNED,
            "global_batch_tokens",
            Target::TRAINING,
            "GlobalBatchTokens",
            true),
        Key(ValueKind::UNSIGNED, "micro_batch", Target::TRAINING, "MicroBatchSize"),
        Key(ValueKind::UNSIGNED, "sequence_length", Target::TRAINING, "SequenceLength"),
        Key(ValueKind::UNSIGNED, "parameter_bytes", Target::TRAINING, "ParameterBytes"),
        Key(ValueKind::UNSIGNED, "activation_bytes", Target::TRAINING, "ActivationBytes"),
        Key(ValueKind::UNSIGNED, "gradient_bytes", Target::TRAINING, "GradientBytes"),
        Key(ValueKind::BOOLEAN, "gradient_reduce_fp32", Target::TRAINING, "GradientReduceFp32"),
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
        Key(ValueKind::UNSIGNED, "dp", Target::LAYOUT, "Dp"),
        Key(ValueKind::UNSIGNED, "tp", Target::LAYOUT, "Tp"),
        Key(ValueKind::UNSIGNED, "pp", Target::LAYOUT, "Pp"),
        Key(ValueKind::UNSIGNED, "virtual_stages", Target::LAYOUT, "VirtualStages"),
        Key(ValueKind::UNSIGNED, "cp", Target::LAYOUT, "Cp"),
        OneOf("cp_style",
              Target::LAYOUT,
              "CpStyle",
              {{"ring", ParallelLayout::RING_ALLGATHER}, {"ulysses", ParallelLayout::ULYSSES}},
              &MakeEnumValue<ParallelLayout::CpStyle>),
        Key(ValueKind::UNSIGNED, "ep", Target::LAYOUT, "Ep"),
        Key(ValueKind::BOOLEAN, "sequence_parallel", Target::LAYOUT, "SequenceParallel"),
        Key(ValueKind::UNSIGNED, "zero_stage", Target::LAYOUT, "ZeroStage"),
        OneOf("fsdp",
              Target::LAYOUT,
              "Fsdp",
              {{"none", ParallelLayout::NONE},
               {"full_shard", ParallelLayout::FULL_SHARD},
               {"shard_grad_op", ParallelLayout::SHARD_GRAD_OP},
               {"hybrid_shard", ParallelLayout::HYBRID_SHARD}},
              &MakeEnumValue<ParallelLayout::FsdpKind>),
        Key(ValueKind::TEXT, "rank_order", Target::LAYOUT, "RankOrder"),
        Key(ValueKind::BOOLEAN, "allow_tp_across_servers", Target::LAYOUT, "AllowTpAcrossServers"),
    };
    return keys;
}

/// @return the keys of the cluster section.
const std::vector<KeySpec>&
ClusterKeys()
{
    static const std::vector<KeySpec> keys = {
        Key(ValueKind::UNSIGNED, "gpus", Target::NONE, "", true),
        Key(ValueKind::UNSIGNED, "gpus_per_server", Target::LAYOUT, "GpusPerServer"),
        Key(ValueKind::TEXT, "gpu", Target::NONE, ""),
        Key(ValueKind::NUMBER, "mfu", Target::GPU, "Mfu"),
        Key(ValueKind::NUMBER, "peak_flops", Target::GPU, "PeakFlops"),
    };
    return keys;
}

/// @return the keys of the topology section.
const std::vector<KeySpec>&
TopologyKeys()
{
    static const std::vector<KeySpec> keys = {
        Key(ValueKind::TEXT, "kind", Target::NONE, ""),
        Key(ValueKind::UNSIGNED, "nics_per_server", Target::TOPOLOGY, "NicsPerServer"),
        Key(ValueKind::UNSIGNED, "planes", Target::TOPOLOGY, "Planes"),
        Key(ValueKind::UNSIGNED, "servers_per_leaf", Target::TOPOLOGY, "ServersPerLeaf"),
        Key(ValueKind::UNSIGNED, "spines", Target::TOPOLOGY, "Spines"),
        Key(ValueKind::UNSIGNED, "fat_tree_k", Target::TOPOLOGY, "FatTreeK"),
        Key(ValueKind::RATE, "host_rate", Target::TOPOLOGY, "HostRate"),
        Key(ValueKind::DELAY, "host_delay", Target::TOPOLOGY, "HostDelay"),
        Key(ValueKind::RATE, "fabric_rate", Target::TOPOLOGY, "FabricRate"),
        Key(ValueKind::DELAY, "fabric_delay", Target::TOPOLOGY, "FabricDelay"),
        Key(ValueKind::RATE, "core_rate", Target::TOPOLOGY, "CoreRate"),
        Key(ValueKind::DELAY, "core_delay", Target::TOPOLOGY, "CoreDelay"),
        Subclass("load_balancer",
                 Target::NETWORK,
                 "LoadBalancer",
                 &LoadBalancer::GetTypeId,
                 "load balancer"),
        Key(ValueKind::TEXT, "egress_stages", Target::NONE, ""),
    };
    return keys;
}

/// @return the keys of the network section.
const std::vector<KeySpec>&
NetworkKeys()
{
    static const std::vector<KeySpec> keys = {
        Key(ValueKind::UNSIGNED, "mtu", Target::NETWORK, "Mtu"),
        Key(ValueKind::UNSIGNED, "channels", Target::NETWORK, "Channels"),
        Subclass("congestion_control",
                 Target::NETWORK,
                 "CongestionControl",
                 &RdmaCongestionOps::GetTypeId,
                 "congestion control"),
        OneOf("dcqcn_profile",
              Target::NETWORK,
              "DcqcnProfile",
              {{"mlx5", NetworkConfig::MLX5},
               {"sigcomm2015", NetworkConfig::SIGCOMM2015},
               {"simai", NetworkConfig::SIMAI}},
              &MakeEnumValue<NetworkConfig::DcqcnProfileKind>),
        OneOf("recovery",
              Target::NETWORK,
              "Recovery",
              {{"go-back-n", NetworkConfig::GO_BACK_N},
               {"selective-repeat", NetworkConfig::SELECTIVE_REPEAT}},
              &MakeEnumValue<NetworkConfig::RecoveryKind>),
        Key(ValueKind::BOOLEAN, "pfc", Target::NETWORK, "Pfc"),
        Key(ValueKind::UNSIGNED, "buffer_bytes", Target::NETWORK, "BufferBytes"),
        Key(ValueKind::UNSIGNED, "kmin_bytes", Target::NETWORK, "KminBytes"),
        Key(ValueKind::UNSIGNED, "kmax_bytes", Target::NETWORK, "KmaxBytes"),
        Key(ValueKind::NUMBER, "pmax", Target::NETWORK, "Pmax"),
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
