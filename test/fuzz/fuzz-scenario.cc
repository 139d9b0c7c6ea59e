/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz-entries.h"

#include "ns3/gpu-cluster-topology.h"
#include "ns3/gpu-spec.h"
#include "ns3/network-config.h"
#include "ns3/parallel-layout.h"
#include "ns3/scenario.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"

/**
 * @file
 * @ingroup llm-fabric-tests
 * Fuzz target "scenario": Scenario::LoadFromString on any text.
 */

namespace llmfabric
{
namespace fuzz
{

std::string
FuzzScenario(const uint8_t* data, std::size_t size)
{
    const std::string name = "fuzz.yaml";
    std::string yaml(reinterpret_cast<const char*>(data), size);
    ns3::Scenario scenario;
    ns3::Ptr<ns3::TransformerSpec> before = scenario.GetModel();
    std::string message = ns3::Scenario::LoadFromString(yaml, name, scenario);
    std::string problem = CheckMessageLine(message);
    if (!problem.empty())
    {
        return "scenario message: " + problem;
    }
    if (!message.empty())
    {
        if (message.rfind(name + ": ", 0) != 0)
        {
            return "scenario message does not start with the file's name";
        }
        // "unchanged on error"
        return scenario.GetModel() == before ? "" : "a refused scenario changed its output";
    }
    if (!scenario.GetModel() || !scenario.GetTraining() || !scenario.GetLayout() ||
        !scenario.GetGpu() || !scenario.GetTopology() || !scenario.GetNetwork())
    {
        return "a loaded scenario lacks one of its objects";
    }
    return scenario.GetGpus() >= 1 ? "" : "a loaded scenario has no GPU";
}

} // namespace fuzz
} // namespace llmfabric
