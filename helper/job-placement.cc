/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-placement.h"

#include "ns3/log.h"

#include <map>
#include <random>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobPlacement");

bool
JobPlacement::ParsePolicy(const std::string& name, Policy& policy)
{
    const std::map<std::string, Policy> names{{"packed", PACKED},
                                              {"spread", SPREAD},
                                              {"random", RANDOM}};
    auto it = names.find(name);
    if (it == names.end())
    {
        return false;
    }
    policy = it->second;
    return true;
}

std::string
JobPlacement::GetPolicyNames()
{
    return "packed, spread, random";
}

std::string
JobPlacement::Place(Policy policy,
                    uint32_t seed,
                    const std::vector<uint32_t>& leafOfServer,
                    const std::vector<uint32_t>& needs,
                    const std::vector<std::vector<uint32_t>>& given,
                    std::vector<std::vector<uint32_t>>& placed,
                    uint32_t& failedJob)
{
    NS_LOG_FUNCTION(policy << seed);
    const auto servers = static_cast<uint32_t>(leafOfServer.size());
    placed.assign(needs.size(), {});
    // The explicit lists first: each server of the cluster, once, in one job.
    std::map<uint32_t, uint32_t> owner;
    for (uint32_t j = 0; j < needs.size(); ++j)
    {
        failedJob = j;
        if (given[j].empty())
        {
            continue;
        }
        if (given[j].size() != needs[j])
        {
            return std::to_string(given[j].size()) + " servers listed, the job needs " +
                   std::to_string(needs[j]);
        }
        for (uint32_t s : given[j])
        {
            if (s >= servers)
            {
                return "server " + std::to_string(s) + " is not in the cluster's " +
                       std::to_string(servers);
            }
            auto [it, fresh] = owner.emplace(s, j);
            if (!fresh)
            {
                return it->second == j ? "server " + std::to_string(s) + " is listed twice"
                                       : "server " + std::to_string(s) + " is also in job " +
                                             std::to_string(it->second) + "'s list";
            }
        }
        placed[j] = given[j];
    }
    std::vector<uint32_t> free;
    for (uint32_t s = 0; s < servers; ++s)
    {
        if (owner.count(s) == 0)
        {
            free.push_back(s);
        }
    }
    if (policy == RANDOM)
    {
        std::mt19937 rng(seed);
        for (std::size_t i = free.size(); i > 1; --i)
        {
            std::swap(free[i - 1], free[rng() % i]);
        }
    }
    // Free servers by leaf, lowest first (SPREAD).
    std::map<uint32_t, std::set<uint32_t>> freeByLeaf;
    for (uint32_t s : free)
    {
        freeByLeaf[leafOfServer[s]].insert(s);
    }
    std::size_t next = 0; // PACKED and RANDOM: the next server of the free list
    auto left = static_cast<uint32_t>(free.size());
    for (uint32_t j = 0; j < needs.size(); ++j)
    {
        failedJob = j;
        if (!given[j].empty())
        {
            continue;
        }
        if (needs[j] > left)
        {
            return "needs " + std::to_string(needs[j]) + " servers, " + std::to_string(left) +
                   " of the cluster's " + std::to_string(servers) + " are left";
        }
        left -= needs[j];
        if (policy != SPREAD)
        {
            placed[j].assign(free.begin() + next, free.begin() + next + needs[j]);
            next += needs[j];
            continue;
        }
        auto leaf = freeByLeaf.begin();
        while (placed[j].size() < needs[j])
        {
            if (leaf == freeByLeaf.end())
            {
                leaf = freeByLeaf.begin();
            }
            if (!leaf->second.empty())
            {
                placed[j].push_back(*leaf->second.begin());
                leaf->second.erase(leaf->second.begin());
            }
            ++leaf;
        }
    }
    return "";
}

} // namespace ns3
