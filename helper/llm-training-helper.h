/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LLM_TRAINING_HELPER_H
#define LLM_TRAINING_HELPER_H

#include "attribute-defaults.h"
#include "roce-fabric.h"
#include "roce-topology-helper.h"

#include "ns3/collective-runtime.h"
#include "ns3/gpu-cluster-topology.h"
#include "ns3/gpu-spec.h"
#include "ns3/iteration-schedule.h"
#include "ns3/llm-training-application.h"
#include "ns3/nvlink-domain.h"
#include "ns3/parallel-layout.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/scenario.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Builds a whole simulated training job from a Scenario: the cluster's RoCE fabric
 * (GpuClusterTopology), an RDMA endpoint per NIC, an NvlinkDomain per server, a
 * CollectiveRuntime with the scenario's algorithms, and an LlmTrainingApplication per GPU rank
 * with its IterationSchedule.
 *
 * Placement: rank r is GPU r mod G of server r div G (ParallelLayout's rule), and uses the NIC
 * GpuClusterTopology::GetNicOfGpu gives; its application is installed on that NIC's host node.
 * Every collective of every rank's schedule is planned before the run (CollectiveRuntime::PlanFor),
 * so that an algorithm that cannot serve a group stops the program before it starts, with the
 * scenario key to change.
 *
 * Several jobs (a scenario with a @c jobs list, Scenario::GetJobs): one fabric for the
 * cluster's servers (Scenario::GetClusterServers), and per job its own CollectiveRuntime (with
 * the job's algorithms, unless the command line gave them), schedules and applications. Job
 * rank r is local GPU r mod G of local server r div G, which is physical server
 * Scenario::GetServers()[r div G]; it uses that server's NIC (GpuClusterTopology::GetNicOfGpu)
 * and NvlinkDomain, and its application starts at the job's Scenario::GetStartTime().
 *
 * The path latency of the ideal times is computed from the fabric: along a shortest path, the sum
 * of the links' delays plus, at every switch, the store-and-forward time of the frame at the
 * egress rate (the last frame of a message, which may be shorter than a full MTU frame).
 */
class LlmTrainingHelper
{
  public:
    /// How Build names the switch buffer when the command line gave it (and a switch's
    /// reserved space and headroom do not fit in it).
    static constexpr const char* COMMAND_LINE_BUFFER = "ns3::SwitchMmu::Buffer (command line)";

    /// One job of the fabric, its parts.
    struct Job
    {
        std::string name;                              //!< its name ("" for a lone job)
        Time start;                                    //!< when its applications start
        std::vector<uint32_t> servers;                 //!< physical server of each local one
        Ptr<CollectiveRuntime> runtime;                //!< its collectives
        std::vector<Ptr<LlmTrainingApplication>> apps; //!< by job rank
        std::vector<IterationSchedule> schedules;      //!< by job rank
    };

    LlmTrainingHelper();

    /// @param iterations training iterations every rank runs (at least 1).
    void SetIterations(uint32_t iterations);

    /**
     * What the user gave on the command line: Build applies the scenario's network and
     * collectives sections as attribute defaults except these (a value the user gave wins).
     * Programs call RecordCommandLine on it after parsing, and Give for their own options that
     * stand for attributes.
     * @return the record.
     */
    AttributeDefaults& GetAttributeDefaults();

    /// @param bytes the DP gradient bucket size of the schedules.
    void SetBucketBytes(uint64_t bytes);

    /// @return the topology helper (MMU, ECN, PFC and device settings apply to the fabric).
    RoceTopologyHelper& GetTopologyHelper();

    /**
     * Build the job: apply the scenario's network section (NetworkConfig::Apply: the RDMA MTU,
     * recovery and congestion control, the channels, the switches' buffer, ECN, PFC and load
     * balancer) and its collectives section (CollectiveRuntime's AllReduce... attributes) as
     * attribute defaults, except what the user gave (GetAttributeDefaults); then build the
     * fabric, the RDMA endpoints, the runtime (which plans every collective once) and one
     * application per rank.
     * @param scenario a loaded scenario.
     * @return "" or the problem, "KEY: reason" with KEY the scenario key (or section) to change.
     */
    std::string Build(const Scenario& scenario);

    /**
     * @return the jobs: one (named "") for a scenario of one job, else those of its jobs list
     * in its order.
     */
    const std::vector<Job>& GetJobs() const;

    /// @return whether the job was built from a scenario with a jobs list.
    bool HasJobList() const;

    /// @return the fabric.
    const RoceFabric& GetFabric() const;
    /// @return the cluster's topology.
    Ptr<GpuClusterTopology> GetTopology() const;
    /// @return the runtime (of the first job).
    Ptr<CollectiveRuntime> GetRuntime() const;
    /// @return the applications, by rank (of every job: by job, then by job rank).
    const std::vector<Ptr<LlmTrainingApplication>>& GetApplications() const;
    /// @return the schedules, by rank (of the first job).
    const std::vector<IterationSchedule>& GetSchedules() const;
    /// @return the RDMA endpoints, by NIC.
    const std::vector<Ptr<RdmaEndpoint>>& GetEndpoints() const;
    /// @return the NVLink domains, by server.
    const std::vector<Ptr<NvlinkDomain>>& GetNvlinkDomains() const;

    /**
     * The path latency between two NICs (see the class description).
     * @param a a NIC (host index of the fabric).
     * @param b another.
     * @param frameBytes the frame whose store-and-forward time every switch adds (wire bytes:
     * Ethernet header, FCS, preamble and gap included).
     * @return the latency.
     */
    Time GetPathLatency(uint32_t a, uint32_t b, uint32_t frameBytes) const;

  private:
    /// Compute every NIC's path latencies (m_latency).
    void ComputeLatencies();

    /**
     * Build the job's schedules, with its runtime's algorithms.
     * @param scenario the job.
     * @param job the job's parts (its runtime made).
     * @param keyPrefix what the scenario keys of the problems start with ("" or "jobs[i].").
     * @return "" or the problem.
     */
    std::string BuildSchedules(const Scenario& scenario, Job& job, const std::string& keyPrefix);

    /**
     * Set up a job's runtime on the built fabric (its NICs, NVLink domains and latencies), plan
     * every collective of its schedules once, and make its applications.
     * @param job the job's parts (runtime, schedules, servers, start).
     * @param keyPrefix what the scenario keys of the problems start with ("" or "jobs[i].").
     * @return "" or the problem.
     */
    std::string ConnectJob(Job& job, const std::string& keyPrefix);

    /**
     * Build the jobs of a scenario with a jobs list (Build's work for it).
     * @param scenario the scenario.
     * @return "" or the problem.
     */
    std::string BuildJobs(const Scenario& scenario);

    /**
     * Take the scenario's topology (a default GpuClusterTopology if it has none) and check it
     * for the cluster, then apply the scenario's network section as attribute defaults
     * (NetworkConfig::Apply).
     * @param scenario the scenario.
     * @param servers the cluster's servers.
     * @param perServer GPUs per server.
     * @return "" or the problem ("topology: ..." or "network: ...").
     */
    std::string ApplyNetwork(const Scenario& scenario, uint32_t servers, uint32_t perServer);

    /**
     * Build the fabric of the cluster, its RDMA endpoints and its NVLink domains.
     * @param servers the cluster's servers.
     * @param perServer its GPUs per server.
     * @return "" or the problem.
     */
    std::string BuildFabric(uint32_t servers, uint32_t perServer);

    uint32_t m_iterations;                           //!< iterations
    AttributeDefaults m_defaults;                    //!< what the user gave
    uint64_t m_bucketBytes;                          //!< DP bucket size
    RoceTopologyHelper m_topoHelper;                 //!< builds the fabric
    RoceFabric m_fabric;                             //!< the fabric
    Ptr<GpuClusterTopology> m_topology;              //!< the cluster's shape
    std::vector<Job> m_jobs;                         //!< the jobs
    bool m_jobList;                                  //!< built from a jobs list
    uint32_t m_perServer;                            //!< GPUs per server
    std::vector<Ptr<LlmTrainingApplication>> m_apps; //!< by job, then rank
    std::vector<Ptr<RdmaEndpoint>> m_endpoints;      //!< by NIC
    std::vector<Ptr<NvlinkDomain>> m_domains;        //!< by server
    /// NIC x NIC: the links' delays along the path, and the sum over its switches of the
    /// inverse egress rate (seconds per bit of a store-and-forward).
    std::vector<std::vector<std::pair<Time, double>>> m_latency;
};

} // namespace ns3

#endif /* LLM_TRAINING_HELPER_H */
