/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_FAULTS_H
#define SCENARIO_FAULTS_H

#include "fault-injector.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace YAML
{
class Node;
} // namespace YAML

namespace ns3
{

/**
 * @ingroup llm-fabric
 * A straggler GPU: the compute of one rank slowed by a factor, from a time and/or for some
 * iterations (LlmTrainingApplication ComputeSlowdown, SlowdownStart, SlowdownFirstIteration,
 * SlowdownIterations).
 */
struct StragglerSpec
{
    uint32_t rank{0};           //!< the global rank
    double factor{1.0};         //!< ComputeSlowdown
    Time from;                  //!< SlowdownStart
    uint32_t firstIteration{0}; //!< SlowdownFirstIteration
    uint32_t iterations{0};     //!< SlowdownIterations (0: to the end)
};

/**
 * @ingroup llm-fabric
 * A scenario's faults: the link and NIC faults (their link and host names are checked against
 * the fabric when it is built: FaultInjector::Check) and the stragglers.
 */
struct ScenarioFaults
{
    std::vector<FaultEvent> faults;        //!< link and NIC faults, in file order
    std::vector<uint32_t> faultEntries;    //!< per fault, its index in the faults: list
    std::vector<StragglerSpec> stragglers; //!< stragglers, in file order
};

/**
 * @ingroup llm-fabric
 * Read a scenario's faults: section, a list of entries with a kind (link_down, link_up,
 * link_degrade, link_ber, nic_down, nic_up, straggler) and the keys that kind takes (see
 * doc/scenario-schema.rst).
 * @param section the section's node.
 * @param gpus the number of GPUs (ranks are below it).
 * @param[out] out the faults.
 * @return "" or "faults[i].KEY: reason" (the caller puts the file name in front).
 */
std::string ReadScenarioFaults(const YAML::Node& section, uint32_t gpus, ScenarioFaults& out);

/**
 * @ingroup llm-fabric
 * Read the stragglers of a command line: "RANK=FACTOR,..." (compute slowed from the start, in
 * every iteration).
 * @param text the list (empty: none).
 * @param gpus the number of GPUs (ranks are below it).
 * @param[out] out receives them, appended.
 * @return "" or the problem, quoting the item.
 */
std::string ParseStragglers(const std::string& text,
                            uint32_t gpus,
                            std::vector<StragglerSpec>& out);

} // namespace ns3

#endif /* SCENARIO_FAULTS_H */
