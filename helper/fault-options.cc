/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fault-options.h"

#include "program-options.h"
#include "usage-error.h"

#include "ns3/log.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FaultOptions");

FaultOptions::FaultOptions(const std::string& program)
    : m_program(program)
{
}

void
FaultOptions::AddTo(ProgramOptions& cmd)
{
    cmd.AddValue("linkDown",
                 "Links down, A:B@TIME,... (A, B: node names such as leaf0, spine1, host3)",
                 m_linkDown);
    cmd.AddValue("linkUp", "Links back up, A:B@TIME,...", m_linkUp);
    cmd.AddValue("linkDegrade",
                 "Links at a fraction of their rate, A:B@TIME=FRACTION,...",
                 m_linkDegrade);
    cmd.AddValue("linkBer", "Bit error rates of links, A:B=BER or A:B@TIME=BER,...", m_linkBer);
    cmd.AddValue("nicDown", "Host NICs down, HOST@TIME,...", m_nicDown);
    cmd.AddValue("nicUp", "Host NICs back up, HOST@TIME,...", m_nicUp);
    cmd.AddValue("routeConvergenceDelay", "ns3::FaultInjector::RouteConvergenceDelay");
}

std::string
FaultOptions::Parse(std::vector<FaultEvent>& faults, std::string& option) const
{
    const std::pair<const char*, std::pair<FaultEvent::Kind, const std::string*>> lists[] = {
        {"linkDown", {FaultEvent::LINK_DOWN, &m_linkDown}},
        {"linkUp", {FaultEvent::LINK_UP, &m_linkUp}},
        {"linkDegrade", {FaultEvent::LINK_DEGRADE, &m_linkDegrade}},
        {"linkBer", {FaultEvent::LINK_BER, &m_linkBer}},
        {"nicDown", {FaultEvent::NIC_DOWN, &m_nicDown}},
        {"nicUp", {FaultEvent::NIC_UP, &m_nicUp}},
    };
    for (const auto& [name, list] : lists)
    {
        if (list.second->empty())
        {
            continue;
        }
        option = name;
        std::string problem = FaultInjector::ParseList(list.first, *list.second, faults);
        if (!problem.empty())
        {
            return problem;
        }
    }
    return "";
}

Ptr<FaultInjector>
FaultOptions::Install(const RoceFabric& fabric,
                      const ScenarioFaults* scenario,
                      const std::string& scenarioName,
                      int64_t stream) const
{
    Ptr<FaultInjector> injector = CreateObject<FaultInjector>();
    injector->SetFabric(fabric);
    if (scenario != nullptr)
    {
        for (std::size_t i = 0; i < scenario->faults.size(); ++i)
        {
            std::string problem = injector->Add(scenario->faults[i]);
            if (!problem.empty())
            {
                UsageError::Exit(scenarioName + ": faults[" +
                                 std::to_string(scenario->faultEntries[i]) + "]." + problem);
            }
        }
    }
    std::vector<FaultEvent> faults;
    std::string option;
    std::string problem = Parse(faults, option);
    if (!problem.empty())
    {
        UsageError::Exit(m_program, option, problem);
    }
    for (const FaultEvent& f : faults)
    {
        problem = injector->Add(f);
        if (!problem.empty())
        {
            static const char* const options[] =
                {"linkDown", "linkUp", "linkDegrade", "linkBer", "nicDown", "nicUp"};
            std::string item = f.from + (f.to.empty() ? "" : ":" + f.to);
            UsageError::Exit(m_program, options[f.kind], "'" + item + "': " + problem);
        }
    }
    injector->AssignStreams(stream);
    return injector;
}

} // namespace ns3
