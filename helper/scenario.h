/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_H
#define SCENARIO_H

#include "scenario-faults.h"

#include "ns3/collective-choices.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace YAML
{
class Node;
}

namespace ns3
{

class GpuClusterTopology;
class GpuSpec;
class NetworkConfig;
class ParallelLayout;
class TrafficReport;
class TrainingConfig;
class TransformerSpec;

/**
 * @ingroup llm-fabric
 * A training scenario read from a YAML file: the model, the training settings, the parallel
 * layout, the GPUs, the collective algorithms, the network topology and the network's transport
 * and switch settings. Everything is held in the attributes of a TransformerSpec, a
 * TrainingConfig, a ParallelLayout, a GpuSpec, a GpuClusterTopology and a NetworkConfig, except
 * the number of GPUs and the algorithm of each collective.
 *
 * <b>Schema</b> (doc/scenario-schema.rst has the same as a table). A scenario is a mapping of
 * sections; every key is snake_case and maps one to one onto an attribute. Unknown sections and
 * keys, duplicate keys, values of the wrong type and values outside the attribute's range are
 * errors.
 * - @c model (required), TransformerSpec: @c preset, one of TransformerSpec::GetPresetNames(),
 *   applied first whatever its place; then @c layers (Layers), @c hidden_size (HiddenSize),
 *   @c heads (Heads), @c kv_heads (KvHeads), @c ffn_hidden_size (FfnHiddenSize), @c gated_ffn
 *   (GatedFfn), @c vocabulary_size (VocabularySize), @c tied_embeddings (TiedEmbeddings),
 *   @c sequence_length (SequenceLength), @c position_embedding (PositionEmbedding:
 *   learned | rope), @c norm (Norm: layer_norm | rms_norm), @c linear_bias (LinearBias),
 *   @c experts (Experts), @c top_k (TopK), @c capacity_factor (CapacityFactor),
 *   @c moe_layer_interval (MoeLayerInterval), @c shared_experts (SharedExperts) override it.
 *   Without a preset, layers, hidden_size, heads, ffn_hidden_size and vocabulary_size are
 *   required, kv_heads defaults to heads and the other keys to the attributes' defaults.
 * - @c training (required), TrainingConfig: exactly one of @c global_batch_sequences
 *   (GlobalBatchSequences) and @c global_batch_tokens (GlobalBatchTokens), both positive; the
 *   other is set to 0. @c micro_batch (MicroBatchSize), @c sequence_length (SequenceLength, 0:
 *   the model's), @c parameter_bytes (ParameterBytes), @c activation_bytes (ActivationBytes),
 *   @c gradient_bytes (GradientBytes), @c gradient_reduce_fp32 (GradientReduceFp32),
 *   @c recomputation (Recomputation: none | selective | full).
 * - @c layout (optional, every degree 1 if absent), ParallelLayout: @c dp, @c tp, @c pp,
 *   @c virtual_stages, @c cp, @c cp_style (CpStyle: ring | ulysses), @c ep,
 *   @c sequence_parallel, @c zero_stage, @c fsdp (Fsdp: none | full_shard | shard_grad_op |
 *   hybrid_shard), @c rank_order (RankOrder), @c allow_tp_across_servers.
 * - @c cluster (required): @c gpus (required, the number of GPUs of the job, kept by Scenario),
 *   @c gpus_per_server (ParallelLayout GpusPerServer), @c gpu (a GpuSpec::GetPresetNames()
 *   name, applied before the overrides), @c mfu (GpuSpec Mfu), @c peak_flops (GpuSpec
 *   PeakFlops, FLOP/s).
 * - @c collectives (optional): @c all_reduce, @c all_gather, @c reduce_scatter, @c all_to_all,
 *   @c send_recv, @c broadcast, each an algorithm name of CollectiveVolume::ParseAlgorithm
 *   (e.g. ring, double-binary-tree). A choice must be a combination CollectiveVolume::Compute
 *   accepts for a group of 4 ranks (2 for send_recv) on 2 servers and 4096 bytes. The defaults
 *   are those of GetDefaultAlgorithm().
 * - @c topology (optional), GpuClusterTopology: @c kind (Kind: leaf-spine | rail-optimized |
 *   fat-tree), @c nics_per_server (NicsPerServer), @c planes (Planes), @c servers_per_leaf
 *   (ServersPerLeaf), @c spines (Spines), @c fat_tree_k (FatTreeK), @c host_rate (HostRate),
 *   @c host_delay (HostDelay), @c fabric_rate (FabricRate), @c fabric_delay (FabricDelay),
 *   @c core_rate (CoreRate), @c core_delay (CoreDelay). Rates are written as DataRate writes
 *   them, a positive number and a unit without space (400Gbps); delays as a number and one of
 *   s, ms, us, ns, ps (1us), from 0 to 1 s. Without the section, the attributes' defaults
 *   (rail-optimized, a NIC per GPU, one plane, non-blocking spines, 400 Gb/s and 1 us links),
 *   with ServersPerLeaf GpuClusterTopology::GetDefaultServersPerLeaf(servers): one switch per
 *   rail when the servers fit on one (up to 64), else leaves of 64 servers.
 * - @c network (optional, the attributes' defaults if absent), NetworkConfig: @c mtu (Mtu),
 *   @c channels (Channels), @c congestion_control (CongestionControl: none | fixed | dcqcn |
 *   hpcc | dctcp | timely | swift, or any alias or TypeId name of a RdmaCongestionOps subclass;
 *   one that states its switch marking, as dctcp, replaces the kmin_bytes, kmax_bytes and pmax
 *   not given: see NetworkConfig),
 *   @c dcqcn_profile (DcqcnProfile: mlx5 | sigcomm2015 | simai), @c recovery (Recovery:
 *   go-back-n | selective-repeat), @c pfc (Pfc), @c buffer_bytes (BufferBytes),
 *   @c kmin_bytes (KminBytes), @c kmax_bytes (KmaxBytes), @c pmax (Pmax).
 *
 * Integers are written in decimal, booleans as true or false, numbers as YAML floats (989.4e12).
 *
 * After loading, TransformerSpec::Check, ParallelLayout::Check(model, gpus),
 * TrainingConfig::Check(dp, model), GpuSpec::Check, GpuClusterTopology::Check(servers,
 * gpus_per_server) and NetworkConfig::Check must accept the scenario, servers being gpus /
 * gpus_per_server rounded up; the topology then has that cluster recorded
 * (GpuClusterTopology::SetCluster).
 *
 * <b>Several jobs</b> (doc/scenario-schema.rst, "Several jobs on one fabric"): a scenario with
 * a list @c jobs holds, at the top, only the sections shared by the jobs, @c cluster (the keys
 * @c gpus_per_server and @c servers, the cluster's size, by default the sum of the jobs'
 * servers), @c topology and @c network, and the keys @c placement (JobPlacement: packed, the
 * default, spread or random) and @c placement_seed (the seed of random, default 1). Each entry
 * of @c jobs has @c name (default job<i>; letters, digits, '_', '-' and '.'), @c start_us (its
 * start, a number of microseconds, default 0), @c servers (an explicit list of the cluster's
 * servers, in the order of the job's local servers), and the per-job sections @c model,
 * @c training, @c layout, @c collectives and @c cluster (@c gpus, @c gpu, @c mfu,
 * @c peak_flops) of a scenario of one job, read and checked as such. GetJobs() has one Scenario
 * per job (sharing the topology and network), with GetJobName(), GetStartTime() and GetServers().
 * Their errors read "FILE: jobs[i].KEY: reason".
 *
 * <b>Errors</b> are one line, "FILE: KEY: reason", KEY being the dotted path of the offending
 * key (layout.tp) or the section of a failed consistency check (layout), for instance
 * "gpt.yaml: layout.tp: expected a positive integer, got 'eight'" or
 * "gpt.yaml: layout: tp 2 x cp 1 x pp 2 x dp 2 = 8 != 16 GPUs" or
 * "gpt.yaml: network: kmin_bytes (500000) is above kmax_bytes (409600)". A YAML syntax error
 * gives "FILE: line L, column C: reason" (from 1), a file that cannot be read "FILE: cannot
 * open".
 */
class Scenario
{
  public:
    /**
     * A scenario with the default objects (GPT-2 small, the TrainingConfig defaults, every
     * degree 1, an H100, the default topology recorded for one server of GpusPerServer GPUs,
     * the NetworkConfig defaults), one GPU and the default algorithms.
     */
    Scenario();
    ~Scenario();

    /**
     * Copy a scenario: the copy shares the objects (Ptr) of the original.
     * @param other the scenario copied.
     */
    Scenario(const Scenario& other);

    /**
     * Copy a scenario: this one then shares the objects (Ptr) of the other.
     * @param other the scenario copied.
     * @return this scenario.
     */
    Scenario& operator=(const Scenario& other);

    /**
     * Load a scenario from a YAML file. Never throws nor aborts.
     * @param path the file.
     * @param[out] out the scenario read; unchanged on error.
     * @return an empty string, or one line "FILE: KEY: reason" (FILE is @p path).
     */
    static std::string Load(const std::string& path, Scenario& out);

    /**
     * Load a scenario from YAML text. Never throws nor aborts.
     * @param yaml the YAML text.
     * @param name the name to give in error messages (a file name).
     * @param[out] out the scenario read; unchanged on error.
     * @return an empty string, or one line "NAME: KEY: reason".
     */
    static std::string LoadFromString(const std::string& yaml,
                                      const std::string& name,
                                      Scenario& out);

    /**
     * @param kind a collective.
     * @return its algorithm when a scenario does not choose one: ring for all-reduce,
     * all-gather, reduce-scatter and broadcast, direct for all-to-all and send-recv.
     */
    static TypeId GetDefaultAlgorithm(CollectiveKind kind);

    /**
     * @param kind a collective.
     * @return the dotted path of its algorithm's key, e.g. "collectives.all_reduce".
     */
    static std::string GetCollectiveKey(CollectiveKind kind);

    /** @return the model. */
    Ptr<TransformerSpec> GetModel() const;
    /** @return the training settings. */
    Ptr<TrainingConfig> GetTraining() const;
    /** @return the parallel layout. */
    Ptr<ParallelLayout> GetLayout() const;
    /** @return the GPU. */
    Ptr<GpuSpec> GetGpu() const;
    /** @return the number of GPUs of the job (with a jobs list: of all the jobs). */
    uint32_t GetGpus() const;
    /** @return the network topology, with the scenario's cluster recorded. */
    Ptr<GpuClusterTopology> GetTopology() const;
    /**
     * @return the transport and switch settings (the NetworkConfig defaults when the scenario
     * has no network section).
     */
    Ptr<NetworkConfig> GetNetwork() const;

    /**
     * @return the faults: section (empty without one): link and NIC faults, whose link and
     *         host names the program checks against the fabric it builds, and stragglers.
     */
    const ScenarioFaults& GetFaults() const;

    /**
     * @param kind a collective.
     * @return the algorithm chosen for it.
     */
    TypeId GetAlgorithm(CollectiveKind kind) const;

    /** @return the algorithm of every collective. */
    const CollectiveChoices& GetAlgorithms() const;

    /**
     * Build the analytic traffic of one iteration of the scenario's job: TrafficReport::Build
     * with its model, training settings, layout, number of GPUs, GPU and algorithms.
     * @param[out] report the report.
     * @return an empty string, or TrafficReport::Build's problem.
     */
    std::string BuildTrafficReport(TrafficReport& report) const;

    /**
     * @return the jobs of a scenario with a @c jobs list, in the list's order; empty for a
     * scenario of one job (which is its own job).
     */
    const std::vector<Scenario>& GetJobs() const;

    /** @return whether the scenario has a @c jobs list. */
    bool HasJobs() const;

    /** @return a job's name (empty for a scenario of one job). */
    const std::string& GetJobName() const;

    /** @return when a job starts (jobs[i].start_us; 0 for a scenario of one job). */
    Time GetStartTime() const;

    /**
     * @return a job's physical servers: its local server k (its GPUs k x G .. k x G + G - 1)
     * is server GetServers()[k] of the cluster. Empty for a scenario of one job (server k is
     * its local server k).
     */
    const std::vector<uint32_t>& GetServers() const;

    /**
     * @return the servers of the cluster: with a @c jobs list, cluster.servers or the sum of the
     * jobs' servers; else the job's servers (GPUs over GPUs per server, rounded up).
     */
    uint32_t GetClusterServers() const;

    /**
     * Keep one job of a scenario with a @c jobs list, on its servers of the same cluster (to run
     * it alone, as it runs with the others); GetGpus() becomes its GPUs.
     * @param name the job's name.
     * @return "" or the problem ("no job 'x' (jobs: a, b)").
     */
    std::string KeepOnlyJob(const std::string& name);

  private:
    /**
     * Read a parsed scenario of one job.
     * @param root the document.
     * @param name the name of the messages (escaped).
     * @param[out] out the scenario; unchanged on error.
     * @return "" or the message.
     */
    static std::string ReadDocument(const YAML::Node& root, const std::string& name, Scenario& out);

    /**
     * Read a scenario with a @c jobs list (Read's work for it).
     * @param root the document.
     * @param name the name of the messages (escaped).
     * @param[out] out the scenario; unchanged on error.
     * @return "" or the message.
     */
    static std::string ReadJobs(const YAML::Node& root, const std::string& name, Scenario& out);

    /**
     * Read one entry of the @c jobs list into a scenario of one job (ReadJobs' work for it).
     * @param entry the entry.
     * @param index its index in the list.
     * @param shared the sections shared by the jobs (cluster, topology, network), by name.
     * @param name the name of the messages (escaped).
     * @param[out] job the job.
     * @param[out] servers its explicit servers (empty: none).
     * @return "" or the message.
     */
    static std::string ReadJob(const YAML::Node& entry,
                               uint32_t index,
                               const std::map<std::string, YAML::Node>& shared,
                               const std::string& name,
                               Scenario& job,
                               std::vector<uint32_t>& servers);

    /**
     * Place the jobs read by ReadJobs on the cluster (JobPlacement) and record the cluster.
     * @param root the document.
     * @param name the name of the messages (escaped).
     * @param given each job's explicit servers.
     * @param[in,out] out the scenario, its jobs read.
     * @return "" or the message.
     */
    static std::string PlaceJobs(const YAML::Node& root,
                                 const std::string& name,
                                 const std::vector<std::vector<uint32_t>>& given,
                                 Scenario& out);

    /**
     * LoadFromString's work, its message not yet made one line.
     * @param yaml the YAML text.
     * @param name the name to give in error messages.
     * @param[out] out the scenario read; unchanged on error.
     * @return an empty string, or the message.
     */
    static std::string Read(const std::string& yaml, const std::string& name, Scenario& out);

    Ptr<TransformerSpec> m_model;       //!< The model.
    Ptr<TrainingConfig> m_training;     //!< Training settings.
    Ptr<ParallelLayout> m_layout;       //!< Parallel layout.
    Ptr<GpuSpec> m_gpu;                 //!< The GPU.
    Ptr<GpuClusterTopology> m_topology; //!< The network topology.
    Ptr<NetworkConfig> m_network;       //!< Transport and switches.
    uint32_t m_gpus;                    //!< GPUs of the job.
    CollectiveChoices m_algorithms;     //!< Algorithm per collective.
    ScenarioFaults m_faults;            //!< The faults section.
    std::vector<Scenario> m_jobs;       //!< The jobs of a jobs list.
    bool m_hasJobs;                     //!< Whether the scenario has a jobs list.
    std::string m_jobName;              //!< A job's name.
    Time m_start;                       //!< A job's start.
    std::vector<uint32_t> m_servers;    //!< A job's physical servers.
    uint32_t m_clusterServers;          //!< Servers of the cluster (jobs list).
};

} // namespace ns3

#endif /* SCENARIO_H */
