/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_PLACEMENT_H
#define JOB_PLACEMENT_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Chooses the physical servers of each job of a scenario with several jobs (the
 * scenario's `placement`), from the cluster's servers and the leaf of each.
 *
 * Jobs with an explicit server list keep it; their servers are taken first. The other jobs are
 * placed in the order of the list, from the servers still free, by the policy:
 * - PACKED: a job takes the lowest-numbered free servers, in increasing order;
 * - SPREAD: a job visits the leaves round-robin, in increasing leaf order starting at the first
 *   leaf, and takes the lowest-numbered free server of each leaf it visits; a leaf without a
 *   free server is skipped. Its k-th server is the k-th taken, so consecutive local servers of a
 *   job are on different leaves when the cluster has them free;
 * - RANDOM: the free servers (in increasing order) are shuffled once by Fisher-Yates with a
 *   std::mt19937 seeded with the scenario's seed (for i from n-1 down to 1, swap i with the
 *   output mod (i + 1); the same on every platform), then the jobs take consecutive runs of the
 *   shuffled list.
 */
class JobPlacement
{
  public:
    /// A placement policy.
    enum Policy
    {
        PACKED, //!< consecutive free servers
        SPREAD, //!< round-robin over the leaves
        RANDOM, //!< a seeded shuffle of the free servers
    };

    /**
     * @param name packed, spread or random.
     * @param[out] policy the policy.
     * @return whether the name is a policy.
     */
    static bool ParsePolicy(const std::string& name, Policy& policy);

    /// @return the policies' names, "packed, spread, random".
    static std::string GetPolicyNames();

    /**
     * Place the jobs.
     * @param policy the policy of the jobs without a server list.
     * @param seed the seed of RANDOM.
     * @param leafOfServer the leaf of every server of the cluster (its size is the number of
     * servers).
     * @param needs the servers each job needs.
     * @param given each job's explicit servers, or an empty list.
     * @param[out] placed each job's servers: local server k of job j is placed[j][k].
     * @param[out] failedJob the job of the problem.
     * @return "" or the problem of job @p failedJob ("server 9 is not in the cluster's 8",
     * "server 3 is listed twice", "server 3 is also in job 0's list", "4 servers listed, the job
     * needs 2", "needs 4 servers, 2 of the cluster's 8 are left").
     */
    static std::string Place(Policy policy,
                             uint32_t seed,
                             const std::vector<uint32_t>& leafOfServer,
                             const std::vector<uint32_t>& needs,
                             const std::vector<std::vector<uint32_t>>& given,
                             std::vector<std::vector<uint32_t>>& placed,
                             uint32_t& failedJob);
};

} // namespace ns3

#endif /* JOB_PLACEMENT_H */
