/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FAULT_OPTIONS_H
#define FAULT_OPTIONS_H

#include "fault-injector.h"
#include "roce-fabric.h"
#include "scenario-faults.h"

#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class ProgramOptions;

/**
 * @ingroup llm-fabric
 * @brief The fault options of the programs that build a fabric, and the FaultInjector they
 * install.
 *
 * Options (each a comma-separated list; links named A:B or A:B/k by the node names of the
 * fabric: hostN, leafN, spineN...; times with their unit):
 * - --linkDown=A:B@TIME and --linkUp=A:B@TIME;
 * - --linkDegrade=A:B@TIME=FRACTION (of the link's built rate, in (0, 1]);
 * - --linkBer=A:B=BER or A:B@TIME=BER (bit error rate in [0, 1]);
 * - --nicDown=HOST@TIME and --nicUp=HOST@TIME;
 * - --routeConvergenceDelay=TIME (FaultInjector::RouteConvergenceDelay).
 *
 * A problem stops the program with one line, "program: --option: reason" (UsageError), or
 * "FILE: faults[i].KEY: reason" for an entry of a scenario's faults: section whose link or host
 * does not exist in the fabric built.
 */
class FaultOptions
{
  public:
    /**
     * @param program the program's name, for messages.
     */
    explicit FaultOptions(const std::string& program);

    /**
     * Register the options.
     * @param cmd the program's options.
     */
    void AddTo(ProgramOptions& cmd);

    /**
     * Read the options' lists.
     * @param[out] faults the faults, option by option in the order of the class description.
     * @param[out] option the option a problem is about.
     * @return "" or the problem.
     */
    std::string Parse(std::vector<FaultEvent>& faults, std::string& option) const;

    /**
     * Parse the options, check every fault (these and the scenario's) against the fabric, and
     * schedule them on a new FaultInjector; stop the program on a problem. Call before the
     * simulation runs.
     * @param fabric the fabric.
     * @param scenario the scenario's faults (null: none).
     * @param scenarioName the scenario file's name, for messages.
     * @param stream the first random stream of the bit error models.
     * @return the injector (also when there are no faults: it then does nothing).
     */
    Ptr<FaultInjector> Install(const RoceFabric& fabric,
                               const ScenarioFaults* scenario,
                               const std::string& scenarioName,
                               int64_t stream) const;

  private:
    std::string m_program;     //!< for messages
    std::string m_linkDown;    //!< --linkDown
    std::string m_linkUp;      //!< --linkUp
    std::string m_linkDegrade; //!< --linkDegrade
    std::string m_linkBer;     //!< --linkBer
    std::string m_nicDown;     //!< --nicDown
    std::string m_nicUp;       //!< --nicUp
};

} // namespace ns3

#endif /* FAULT_OPTIONS_H */
