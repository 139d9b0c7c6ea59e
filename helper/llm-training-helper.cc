/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-training-helper.h"

#include "network-config.h"
#include "rdma-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/gpu-spec.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/parallel-layout.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-net-device.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/uinteger.h"

#include <deque>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmTrainingHelper");

LlmTrainingHelper::LlmTrainingHelper()
    : m_iterations(1),
      m_bucketBytes(IterationSchedule::DEFAULT_BUCKET_BYTES),
      m_jobList(false),
      m_perServer(1)
{
}

void
LlmTrainingHelper::SetIterations(uint32_t iterations)
{
    m_iterations = iterations;
}

AttributeDefaults&
LlmTrainingHelper::GetAttributeDefaults()
{
    return m_defaults;
}

void
LlmTrainingHelper::SetBucketBytes(uint64_t bytes)
{
    m_bucketBytes = bytes;
}

RoceTopologyHelper&
LlmTrainingHelper::GetTopologyHelper()
{
    return m_topoHelper;
}

std::string
LlmTrainingHelper::Build(const Scenario& scenario)
{
    if (m_iterations == 0)
    {
        return "iterations: must be at least 1";
    }
    if (scenario.HasJobs())
    {
        return BuildJobs(scenario);
    }
    Ptr<ParallelLayout> layout = scenario.GetLayout();
    uint32_t gpus = scenario.GetGpus();
    uint32_t perServer = layout->GetGpusPerServer();
    if (perServer == 0 || gpus % perServer != 0)
    {
        return "cluster: " + std::to_string(gpus) + " GPUs do not fill servers of " +
               std::to_string(perServer);
    }
    uint32_t servers = gpus / perServer;
    std::string problem = ApplyNetwork(scenario, servers, perServer);
    if (!problem.empty())
    {
        return problem;
    }
    for (uint32_t k = 0; k < COLLECTIVE_KINDS; ++k)
    {
        auto kind = static_cast<CollectiveKind>(k);
        m_defaults.Offer("ns3::CollectiveRuntime::" +
                             CollectiveRuntime::GetAlgorithmAttributeName(kind),
                         TypeIdValue(scenario.GetAlgorithm(kind)));
    }
    m_jobList = false;
    m_jobs.assign(1, Job());
    Job& job = m_jobs.front();
    job.runtime = CreateObject<CollectiveRuntime>();
    for (uint32_t s = 0; s < servers; ++s)
    {
        job.servers.push_back(s);
    }
    // Schedules first: they need no fabric, and their problems are the scenario's.
    problem = BuildSchedules(scenario, job, "");
    if (problem.empty())
    {
        problem = BuildFabric(servers, perServer);
    }
    m_apps.clear();
    return problem.empty() ? ConnectJob(job, "") : problem;
}

std::string
LlmTrainingHelper::BuildJobs(const Scenario& scenario)
{
    const std::vector<Scenario>& jobs = scenario.GetJobs();
    uint32_t perServer = scenario.GetLayout()->GetGpusPerServer();
    uint32_t servers = scenario.GetClusterServers();
    std::string problem = ApplyNetwork(scenario, servers, perServer);
    if (!problem.empty())
    {
        return problem;
    }
    m_jobList = true;
    m_jobs.assign(jobs.size(), Job());
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        Job& job = m_jobs[j];
        job.name = jobs[j].GetJobName();
        job.start = jobs[j].GetStartTime();
        job.servers = jobs[j].GetServers();
        job.runtime = CreateObject<CollectiveRuntime>();
        // Each job its algorithms, unless the command line chose one for all.
        for (uint32_t k = 0; k < COLLECTIVE_KINDS; ++k)
        {
            auto kind = static_cast<CollectiveKind>(k);
            if (!m_defaults.IsGiven("ns3::CollectiveRuntime::" +
                                    CollectiveRuntime::GetAlgorithmAttributeName(kind)))
            {
                job.runtime->SetAlgorithm(kind, jobs[j].GetAlgorithm(kind));
            }
        }
        problem = BuildSchedules(jobs[j], job, "jobs[" + std::to_string(j) + "].");
        if (!problem.empty())
        {
            return problem;
        }
    }
    problem = BuildFabric(servers, perServer);
    m_apps.clear();
    for (std::size_t j = 0; j < jobs.size() && problem.empty(); ++j)
    {
        problem = ConnectJob(m_jobs[j], "jobs[" + std::to_string(j) + "].");
    }
    return problem;
}

std::string
LlmTrainingHelper::ApplyNetwork(const Scenario& scenario, uint32_t servers, uint32_t perServer)
{
    m_topology = scenario.GetTopology();
    if (!m_topology)
    {
        m_topology = CreateObject<GpuClusterTopology>();
    }
    std::string problem = m_topology->Check(servers, perServer);
    if (!problem.empty())
    {
        return "topology: " + problem;
    }
    // DCQCN's alpha decays in closed form: the same states as an event per period, faster.
    m_defaults.Offer("ns3::Dcqcn::AlphaDecayEvents", BooleanValue(false));
    problem = scenario.GetNetwork()->Apply(m_defaults, m_topoHelper);
    return problem.empty() ? "" : "network: " + problem;
}

std::string
LlmTrainingHelper::BuildSchedules(const Scenario& scenario, Job& job, const std::string& keyPrefix)
{
    // The schedules use the runtime's algorithms, so that the report and the simulation plan
    // alike.
    uint32_t gpus = scenario.GetGpus();
    TrafficReport::Inputs inputs{scenario.GetModel(),
                                 scenario.GetTraining(),
                                 scenario.GetLayout(),
                                 gpus,
                                 scenario.GetGpu()};
    for (uint32_t k = 0; k < COLLECTIVE_KINDS; ++k)
    {
        auto kind = static_cast<CollectiveKind>(k);
        inputs.algorithms.Set(kind, job.runtime->GetAlgorithm(kind));
    }
    job.schedules.assign(gpus, IterationSchedule());
    for (uint32_t r = 0; r < gpus; ++r)
    {
        std::string problem = IterationSchedule::Build(inputs, r, job.schedules[r], m_bucketBytes);
        if (!problem.empty())
        {
            // An algorithm that cannot serve a group is blamed on the key that chose it.
            CollectiveKind kind = CollectiveKind::ALL_REDUCE;
            std::string key = job.schedules[r].GetReport().GetRefusedKind(kind)
                                  ? Scenario::GetCollectiveKey(kind)
                                  : "layout";
            return keyPrefix + key + ": rank " + std::to_string(r) + ": " + problem;
        }
    }
    return "";
}

std::string
LlmTrainingHelper::BuildFabric(uint32_t servers, uint32_t perServer)
{
    m_perServer = perServer;
    m_fabric = m_topology->Build(m_topoHelper, servers, perServer);
    std::string problem = m_fabric.CheckSwitches();
    if (!problem.empty())
    {
        // The buffer is the scenario's unless the command line gave it.
        return (m_defaults.IsGiven("ns3::SwitchMmu::Buffer")
                    ? std::string(COMMAND_LINE_BUFFER)
                    : std::string("network.buffer_bytes")) +
               ": " + problem;
    }
    RdmaHelper rdma;
    m_endpoints = rdma.Install(m_fabric);
    m_domains.clear();
    for (uint32_t s = 0; s < servers; ++s)
    {
        Ptr<NvlinkDomain> domain = CreateObject<NvlinkDomain>();
        domain->SetGpus(perServer);
        m_domains.push_back(domain);
    }
    ComputeLatencies();
    return "";
}

std::string
LlmTrainingHelper::ConnectJob(Job& job, const std::string& keyPrefix)
{
    const uint32_t perServer = m_perServer;
    Ptr<CollectiveRuntime> runtime = job.runtime;
    // The MTU's one home is RdmaQueuePair::Mtu: the runtime's ideal times use the same.
    TypeId::AttributeInformation mtu;
    RdmaQueuePair::GetTypeId().LookupAttributeByName("Mtu", &mtu);
    runtime->SetAttribute("Mtu", *mtu.initialValue);
    runtime->SetAttribute("NicRate", DataRateValue(m_fabric.GetHostDevice(0)->GetDataRate()));
    runtime->SetGpusPerServer(perServer);
    for (uint32_t s = 0; s < job.servers.size(); ++s)
    {
        runtime->SetNvlinkDomain(s, m_domains[job.servers[s]]);
    }
    auto ranks = static_cast<uint32_t>(job.schedules.size());
    std::vector<uint32_t> nics;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        nics.push_back(m_topology->GetNicOfGpu(job.servers[r / perServer], r % perServer));
        runtime->SetNic(r, m_endpoints[nics.back()], nics.back());
    }
    runtime->SetLatencyModel(MakeCallback(&LlmTrainingHelper::GetPathLatency, this));

    // Plan every distinct collective once, so that an impossible one stops us now.
    std::set<std::tuple<std::vector<uint32_t>, CollectiveKind, uint64_t>> planned;
    for (const auto& schedule : job.schedules)
    {
        for (const auto& op : schedule.GetOps())
        {
            if (op.type != ScheduleOp::COLLECTIVE)
            {
                continue;
            }
            auto key = std::make_tuple(op.members, op.kind, op.messageBytes);
            if (!planned.insert(key).second)
            {
                continue;
            }
            CollectivePlan plan;
            std::string problem = runtime->PlanFor(op.members, op.kind, op.messageBytes, plan);
            if (!problem.empty())
            {
                return keyPrefix + Scenario::GetCollectiveKey(op.kind) + ": " + problem +
                       " (rank " + std::to_string(schedule.GetRank()) + ", '" + op.name + "')";
            }
        }
    }

    job.apps.clear();
    for (uint32_t r = 0; r < ranks; ++r)
    {
        Ptr<LlmTrainingApplication> app = CreateObject<LlmTrainingApplication>();
        app->SetAttribute("Rank", UintegerValue(r));
        app->SetAttribute("Iterations", UintegerValue(m_iterations));
        app->SetSchedule(job.schedules[r]);
        app->SetRuntime(runtime);
        app->SetStartTime(job.start);
        m_fabric.GetHost(nics[r])->AddApplication(app);
        job.apps.push_back(app);
        m_apps.push_back(app);
    }
    return "";
}

void
LlmTrainingHelper::ComputeLatencies()
{
    // Nodes by id, and each node's links: (neighbour, delay, rate of the port towards it).
    struct Edge
    {
        uint32_t to;
        Time delay;
        DataRate rate;
    };

    std::unordered_map<uint32_t, std::vector<Edge>> edges;
    std::vector<Ptr<Node>> nodes;
    for (uint32_t h = 0; h < m_fabric.GetNHosts(); ++h)
    {
        nodes.push_back(m_fabric.GetHost(h));
    }
    for (uint32_t s = 0; s < m_fabric.GetNSwitches(); ++s)
    {
        nodes.push_back(m_fabric.GetSwitchNode(s));
    }
    for (const auto& node : nodes)
    {
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<RoceNetDevice> device = DynamicCast<RoceNetDevice>(node->GetDevice(d));
            if (!device || !device->GetChannel())
            {
                continue;
            }
            Ptr<Channel> channel = device->GetChannel();
            for (std::size_t e = 0; e < channel->GetNDevices(); ++e)
            {
                Ptr<NetDevice> other = channel->GetDevice(e);
                if (other != device)
                {
                    TimeValue delay;
                    channel->GetAttribute("Delay", delay);
                    edges[node->GetId()].push_back(
                        {other->GetNode()->GetId(), delay.Get(), device->GetDataRate()});
                }
            }
        }
    }
    uint32_t hosts = m_fabric.GetNHosts();
    std::unordered_map<uint32_t, uint32_t> hostOfNode;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        hostOfNode[m_fabric.GetHost(h)->GetId()] = h;
    }
    m_latency.assign(hosts, std::vector<std::pair<Time, double>>(hosts, {Time(0), 0.0}));
    for (uint32_t h = 0; h < hosts; ++h)
    {
        // Breadth-first: fewest hops; along the first path found, the delays and, at every
        // switch's egress, the time per bit of a store-and-forward.
        std::unordered_map<uint32_t, std::pair<Time, double>> latency;
        std::deque<uint32_t> queue;
        uint32_t start = m_fabric.GetHost(h)->GetId();
        latency[start] = {Time(0), 0.0};
        queue.push_back(start);
        while (!queue.empty())
        {
            uint32_t at = queue.front();
            queue.pop_front();
            for (const Edge& edge : edges[at])
            {
                if (latency.count(edge.to))
                {
                    continue;
                }
                double perBit =
                    at == start ? 0.0 : 1.0 / static_cast<double>(edge.rate.GetBitRate());
                latency[edge.to] = {latency[at].first + edge.delay, latency[at].second + perBit};
                auto host = hostOfNode.find(edge.to);
                if (host != hostOfNode.end())
                {
                    m_latency[h][host->second] = latency[edge.to];
                    continue; // hosts do not forward
                }
                queue.push_back(edge.to);
            }
        }
    }
}

Time
LlmTrainingHelper::GetPathLatency(uint32_t a, uint32_t b, uint32_t frameBytes) const
{
    const auto& [delay, perBit] = m_latency.at(a).at(b);
    return delay + Seconds(perBit * frameBytes * 8);
}

const RoceFabric&
LlmTrainingHelper::GetFabric() const
{
    return m_fabric;
}

Ptr<GpuClusterTopology>
LlmTrainingHelper::GetTopology() const
{
    return m_topology;
}

Ptr<CollectiveRuntime>
LlmTrainingHelper::GetRuntime() const
{
    return m_jobs.empty() ? nullptr : m_jobs.front().runtime;
}

const std::vector<LlmTrainingHelper::Job>&
LlmTrainingHelper::GetJobs() const
{
    return m_jobs;
}

bool
LlmTrainingHelper::HasJobList() const
{
    return m_jobList;
}

const std::vector<Ptr<LlmTrainingApplication>>&
LlmTrainingHelper::GetApplications() const
{
    return m_apps;
}

const std::vector<IterationSchedule>&
LlmTrainingHelper::GetSchedules() const
{
    static const std::vector<IterationSchedule> none;
    return m_jobs.empty() ? none : m_jobs.front().schedules;
}

const std::vector<Ptr<RdmaEndpoint>>&
LlmTrainingHelper::GetEndpoints() const
{
    return m_endpoints;
}

const std::vector<Ptr<NvlinkDomain>>&
LlmTrainingHelper::GetNvlinkDomains() const
{
    return m_domains;
}

} // namespace ns3
