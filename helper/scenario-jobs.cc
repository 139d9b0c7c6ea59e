/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Scenario: the scenarios with a jobs list (several jobs on one fabric). The rest of the class
// is in scenario.cc; a job is read there, as a scenario of one job (ReadDocument).

#include "gpu-cluster-topology.h"
#include "job-placement.h"
#include "network-config.h"
#include "scenario.h"
#include "value-parser.h"

#include "ns3/gpu-spec.h"
#include "ns3/log.h"
#include "ns3/parallel-layout.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <limits>
#include <set>
#include <yaml-cpp/yaml.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioJobs");

namespace
{

/// The top-level keys of a scenario with a jobs list.
const std::vector<std::string>
    TOP_KEYS{"jobs", "cluster", "topology", "network", "placement", "placement_seed", "faults"};
/// The keys of an entry of jobs.
const std::vector<std::string> JOB_KEYS{"name",
                                        "start_us",
                                        "servers",
                                        "model",
                                        "training",
                                        "layout",
                                        "collectives",
                                        "cluster"};
/// The keys of the top-level cluster section of a scenario with a jobs list.
const std::vector<std::string> SHARED_CLUSTER_KEYS{"gpus_per_server", "servers"};
/// The longest a value is shown in a message, in bytes of its escaped form.
constexpr std::size_t MAX_SHOWN = 80;

/**
 * @param names names.
 * @return them separated by ", ".
 */
std::string
JoinNames(const std::vector<std::string>& names)
{
    std::string joined;
    for (const auto& name : names)
    {
        joined += (joined.empty() ? "" : ", ") + name;
    }
    return joined;
}

/**
 * @param names names.
 * @param name a name.
 * @return whether @p name is one of @p names.
 */
bool
IsOneOf(const std::vector<std::string>& names, const std::string& name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

/**
 * @param node a YAML node.
 * @return how it reads in a message (as the scenario's other messages show values).
 */
std::string
Shown(const YAML::Node& node)
{
    if (node.IsScalar())
    {
        std::string text = ValueParser::Quote(node.Scalar(), MAX_SHOWN);
        return node.Tag() == "?" ? text : "the string " + text;
    }
    return node.IsMap() ? "a mapping" : node.IsSequence() ? "a sequence" : "nothing";
}

/**
 * Parse a plain decimal integer of 32 bits.
 * @param node the value.
 * @param minimum the smallest accepted.
 * @param[out] value the integer.
 * @return "" or the reason.
 */
std::string
ParseCount(const YAML::Node& node, uint64_t minimum, uint32_t& value)
{
    uint64_t parsed = 0;
    bool overflow = false;
    std::string expected = std::string("expected an integer from ") + std::to_string(minimum) +
                           " to " + std::to_string(std::numeric_limits<uint32_t>::max());
    if (!node.IsScalar() || node.Tag() != "?" ||
        !ValueParser::ParseDecimal(node.Scalar(), parsed, overflow) || overflow ||
        parsed < minimum || parsed > std::numeric_limits<uint32_t>::max())
    {
        return expected + ", got " + Shown(node);
    }
    value = static_cast<uint32_t>(parsed);
    return "";
}

/**
 * Check a mapping's keys: known and distinct.
 * @param node the mapping.
 * @param path its dotted path.
 * @param known the known keys.
 * @param[out] badKey the path of the offending key.
 * @return "" or the reason.
 */
std::string
CheckKeys(const YAML::Node& node,
          const std::string& path,
          const std::vector<std::string>& known,
          std::string& badKey)
{
    badKey = path;
    if (!node.IsMap())
    {
        return "expected a mapping, got " + Shown(node);
    }
    std::set<std::string> seen;
    for (const auto& item : node)
    {
        if (!item.first.IsScalar())
        {
            return "expected plain keys, got " + Shown(item.first);
        }
        badKey = path + (path.empty() ? "" : ".") + item.first.Scalar();
        if (!IsOneOf(known, item.first.Scalar()))
        {
            return "unknown key (known: " + JoinNames(known) + ")";
        }
        if (!seen.insert(item.first.Scalar()).second)
        {
            return "duplicate key";
        }
    }
    badKey = path;
    return "";
}

/**
 * @param name a job's name.
 * @return whether it is letters, digits, '_', '-' and '.' only (safe in CSV and file names).
 */
bool
IsJobName(const std::string& name)
{
    if (name.empty())
    {
        return false;
    }
    for (char c : name)
    {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
        {
            return false;
        }
    }
    return true;
}

} // namespace

std::string
Scenario::ReadJobs(const YAML::Node& root, const std::string& name, Scenario& out)
{
    NS_LOG_FUNCTION(name);
    auto fail = [&name](const std::string& key, const std::string& reason) {
        return name + ": " + ValueParser::Escape(key, MAX_SHOWN) + ": " + reason;
    };
    std::string key;
    std::string reason = CheckKeys(root, "", TOP_KEYS, key);
    if (!reason.empty())
    {
        if (IsOneOf({"model", "training", "layout", "collectives"}, key))
        {
            reason = "a section of each job: give it in every entry of jobs";
        }
        return key.empty() ? name + ": " + reason : fail(key, reason);
    }
    std::map<std::string, YAML::Node> shared;
    for (const char* section : {"cluster", "topology", "network"})
    {
        if (root[section])
        {
            shared[section] = root[section];
        }
    }
    uint32_t perServer = 0;
    uint32_t servers = 0;
    if (shared.count("cluster") != 0)
    {
        const YAML::Node& cluster = shared["cluster"];
        reason = CheckKeys(cluster, "cluster", SHARED_CLUSTER_KEYS, key);
        if (!reason.empty())
        {
            if (reason.rfind("unknown", 0) == 0)
            {
                reason += "; the GPUs of a job are given in its entry (jobs[i].cluster)";
            }
            return fail(key, reason);
        }
        if (cluster["gpus_per_server"])
        {
            reason = ParseCount(cluster["gpus_per_server"], 1, perServer);
            if (reason.empty() &&
                !CreateObject<ParallelLayout>()->SetAttributeFailSafe("GpusPerServer",
                                                                      UintegerValue(perServer)))
            {
                reason = "out of ParallelLayout GpusPerServer's range";
            }
            if (!reason.empty())
            {
                return fail("cluster.gpus_per_server", reason);
            }
        }
        if (cluster["servers"] && !(reason = ParseCount(cluster["servers"], 1, servers)).empty())
        {
            return fail("cluster.servers", reason);
        }
    }
    const YAML::Node& list = root["jobs"];
    if (!list.IsSequence())
    {
        return fail("jobs", "expected a list of jobs, got " + Shown(list));
    }
    if (list.size() == 0)
    {
        return fail("jobs", "the list is empty");
    }
    Scenario result;
    std::vector<std::vector<uint32_t>> given(list.size());
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i)
    {
        Scenario job;
        std::string error = ReadJob(list[i], static_cast<uint32_t>(i), shared, name, job, given[i]);
        if (!error.empty())
        {
            return error;
        }
        if (!names.insert(job.m_jobName).second)
        {
            return fail("jobs[" + std::to_string(i) + "].name",
                        "'" + job.m_jobName + "' is the name of an earlier job");
        }
        result.m_jobs.push_back(job);
    }
    result.m_hasJobs = true;
    result.m_clusterServers = servers; // 0: the sum of the jobs' servers (PlaceJobs)
    if (root["faults"])
    {
        // The fabric's faults are shared; a straggler's rank counts the jobs' ranks in list
        // order (job 0's first), as the program's applications are.
        uint32_t gpus = 0;
        for (const Scenario& job : result.m_jobs)
        {
            gpus += job.GetGpus();
        }
        std::string error = ReadScenarioFaults(root["faults"], gpus, result.m_faults);
        if (!error.empty())
        {
            return name + ": " + error;
        }
    }
    std::string error = PlaceJobs(root, name, given, result);
    if (error.empty())
    {
        out = result;
    }
    return error;
}

std::string
Scenario::ReadJob(const YAML::Node& entry,
                  uint32_t index,
                  const std::map<std::string, YAML::Node>& shared,
                  const std::string& name,
                  Scenario& job,
                  std::vector<uint32_t>& servers)
{
    const std::string path = "jobs[" + std::to_string(index) + "]";
    auto fail = [&name](const std::string& key, const std::string& reason) {
        return name + ": " + ValueParser::Escape(key, MAX_SHOWN) + ": " + reason;
    };
    std::string key;
    std::string reason = CheckKeys(entry, path, JOB_KEYS, key);
    if (!reason.empty())
    {
        return fail(key, reason);
    }
    // The job as a scenario of one job: its own sections, and the shared ones.
    YAML::Node document(YAML::NodeType::Map);
    for (const auto& item : entry)
    {
        const std::string k = item.first.Scalar();
        if (k == "cluster")
        {
            if (!item.second.IsMap())
            {
                return fail(path + ".cluster", "expected a mapping, got " + Shown(item.second));
            }
            if (item.second["gpus_per_server"])
            {
                return fail(path + ".cluster.gpus_per_server",
                            "shared by the jobs: give it in the top-level cluster section");
            }
            YAML::Node cluster(YAML::NodeType::Map);
            for (const auto& c : item.second)
            {
                cluster.force_insert(c.first, c.second);
            }
            auto it = shared.find("cluster");
            if (it != shared.end() && it->second["gpus_per_server"])
            {
                cluster.force_insert("gpus_per_server", it->second["gpus_per_server"]);
            }
            document.force_insert("cluster", cluster);
        }
        else if (k != "name" && k != "start_us" && k != "servers")
        {
            document.force_insert(item.first, item.second);
        }
    }
    for (const char* section : {"topology", "network"})
    {
        auto it = shared.find(section);
        if (it != shared.end())
        {
            document.force_insert(section, it->second);
        }
    }
    const std::string prefix = name + ": " + path;
    std::string error = ReadDocument(document, prefix, job);
    if (!error.empty())
    {
        // "NAME: jobs[i]: KEY: reason" -> "NAME: jobs[i].KEY: reason", but for the shared
        // sections, which are the file's top-level ones.
        std::string rest = error.substr(prefix.size() + 2);
        bool own = rest.rfind("topology", 0) != 0 && rest.rfind("network", 0) != 0;
        return name + ": " + (own ? path + "." : "") + rest;
    }
    uint32_t perServer = job.m_layout->GetGpusPerServer();
    if (job.m_gpus % perServer != 0)
    {
        return fail(path + ".cluster.gpus",
                    std::to_string(job.m_gpus) + " GPUs do not fill servers of " +
                        std::to_string(perServer) + " GPUs");
    }
    job.m_jobName = "job" + std::to_string(index);
    if (entry["name"])
    {
        const YAML::Node& n = entry["name"];
        if (!n.IsScalar() || !IsJobName(n.Scalar()))
        {
            return fail(path + ".name",
                        "expected a name of letters, digits, '_', '-' and '.', got " + Shown(n));
        }
        job.m_jobName = n.Scalar();
    }
    if (entry["start_us"])
    {
        const YAML::Node& s = entry["start_us"];
        double us = 0;
        if (!s.IsScalar() || s.Tag() != "?" || !ValueParser::ParseNumber(s.Scalar(), us) ||
            us < 0 || us > 1e12)
        {
            return fail(path + ".start_us",
                        "expected a number of microseconds from 0 to 1e12, got " + Shown(s));
        }
        job.m_start = PicoSeconds(std::llround(us * 1e6));
    }
    servers.clear();
    if (entry["servers"])
    {
        const YAML::Node& list = entry["servers"];
        if (!list.IsSequence() || list.size() == 0)
        {
            return fail(path + ".servers", "expected a list of servers, got " + Shown(list));
        }
        for (std::size_t k = 0; k < list.size(); ++k)
        {
            uint32_t server = 0;
            reason = ParseCount(list[k], 0, server);
            if (!reason.empty())
            {
                return fail(path + ".servers[" + std::to_string(k) + "]", reason);
            }
            servers.push_back(server);
        }
    }
    return "";
}

std::string
Scenario::PlaceJobs(const YAML::Node& root,
                    const std::string& name,
                    const std::vector<std::vector<uint32_t>>& given,
                    Scenario& out)
{
    auto fail = [&name](const std::string& key, const std::string& reason) {
        return name + ": " + key + ": " + reason;
    };
    const uint32_t perServer = out.m_jobs.front().m_layout->GetGpusPerServer();
    out.m_layout->SetAttribute("GpusPerServer", UintegerValue(perServer));
    std::vector<uint32_t> needs;
    uint64_t total = 0;
    for (const Scenario& job : out.m_jobs)
    {
        needs.push_back(job.m_gpus / perServer);
        total += needs.back();
    }
    if (out.m_clusterServers == 0)
    {
        if (total > std::numeric_limits<uint32_t>::max() / perServer)
        {
            return fail("jobs", "the jobs need " + std::to_string(total) + " servers");
        }
        out.m_clusterServers = static_cast<uint32_t>(total);
    }
    const uint32_t servers = out.m_clusterServers;
    // One topology and one network for all: the first job's (every job read the same sections).
    out.m_topology = out.m_jobs.front().m_topology;
    out.m_network = out.m_jobs.front().m_network;
    if (!root["topology"])
    {
        out.m_topology->SetAttributeFailSafe(
            "ServersPerLeaf",
            UintegerValue(GpuClusterTopology::GetDefaultServersPerLeaf(servers)));
    }
    std::string problem = out.m_topology->SetCluster(servers, perServer);
    if (!problem.empty())
    {
        return fail("topology", problem);
    }
    JobPlacement::Policy policy = JobPlacement::PACKED;
    if (root["placement"])
    {
        const YAML::Node& p = root["placement"];
        if (!p.IsScalar() || !JobPlacement::ParsePolicy(p.Scalar(), policy))
        {
            return fail("placement",
                        "expected one of " + JobPlacement::GetPolicyNames() + ", got " + Shown(p));
        }
    }
    uint32_t seed = 1;
    if (root["placement_seed"])
    {
        std::string reason = ParseCount(root["placement_seed"], 0, seed);
        if (!reason.empty())
        {
            return fail("placement_seed", reason);
        }
    }
    std::vector<uint32_t> leafOfServer;
    for (uint32_t s = 0; s < servers; ++s)
    {
        leafOfServer.push_back(out.m_topology->GetLeafOfNic(out.m_topology->GetNicOfGpu(s, 0)));
    }
    std::vector<std::vector<uint32_t>> placed;
    uint32_t failed = 0;
    problem = JobPlacement::Place(policy, seed, leafOfServer, needs, given, placed, failed);
    if (!problem.empty())
    {
        return fail("jobs[" + std::to_string(failed) + "]" +
                        (given[failed].empty() ? "" : ".servers"),
                    problem);
    }
    uint64_t gpus = 0;
    for (const Scenario& job : out.m_jobs)
    {
        gpus += job.m_gpus;
    }
    if (gpus > std::numeric_limits<uint32_t>::max())
    {
        return fail("jobs", "more than 4294967295 GPUs in all");
    }
    out.m_gpus = static_cast<uint32_t>(gpus);
    for (std::size_t j = 0; j < out.m_jobs.size(); ++j)
    {
        Scenario& job = out.m_jobs[j];
        job.m_servers = placed[j];
        job.m_topology = out.m_topology;
        job.m_network = out.m_network;
        job.m_clusterServers = servers;
    }
    return "";
}

const std::vector<Scenario>&
Scenario::GetJobs() const
{
    return m_jobs;
}

bool
Scenario::HasJobs() const
{
    return m_hasJobs;
}

const std::string&
Scenario::GetJobName() const
{
    return m_jobName;
}

Time
Scenario::GetStartTime() const
{
    return m_start;
}

const std::vector<uint32_t>&
Scenario::GetServers() const
{
    return m_servers;
}

uint32_t
Scenario::GetClusterServers() const
{
    if (m_hasJobs || m_clusterServers != 0)
    {
        return m_clusterServers;
    }
    uint32_t perServer = m_layout->GetGpusPerServer();
    return m_gpus / perServer + (m_gpus % perServer != 0 ? 1 : 0);
}

std::string
Scenario::KeepOnlyJob(const std::string& name)
{
    std::string names;
    uint32_t first = 0; // the kept job's first rank in the numbering of all jobs
    for (const Scenario& job : m_jobs)
    {
        if (job.m_jobName == name)
        {
            Scenario kept = job;
            m_jobs.assign(1, kept);
            m_gpus = kept.m_gpus;
            // The fabric's faults stay; stragglers of this job are renumbered from its first
            // rank, those of the other jobs go with them.
            std::vector<StragglerSpec> stragglers;
            for (StragglerSpec straggler : m_faults.stragglers)
            {
                if (straggler.rank >= first && straggler.rank < first + kept.m_gpus)
                {
                    straggler.rank -= first;
                    stragglers.push_back(straggler);
                }
            }
            m_faults.stragglers = stragglers;
            return "";
        }
        first += job.m_gpus;
        names += (names.empty() ? "" : ", ") + job.m_jobName;
    }
    return "no job '" + name + "' (jobs: " + (names.empty() ? "none" : names) + ")";
}

} // namespace ns3
