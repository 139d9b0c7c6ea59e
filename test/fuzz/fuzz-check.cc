/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz-entries.h"

#include "ns3/global-value.h"
#include "ns3/gpu-spec.h"
#include "ns3/scenario-keys.h"
#include "ns3/transformer-spec.h"
#include "ns3/type-id.h"

#include <set>

/**
 * @file
 * @ingroup llm-fabric-tests
 * What the fuzz targets share: the check of a one-line message and the dictionaries.
 */

namespace llmfabric
{
namespace fuzz
{

std::string
CheckMessageLine(const std::string& text)
{
    if (text.size() > 400)
    {
        return "message longer than 400 bytes (" + std::to_string(text.size()) + ")";
    }
    std::size_t i = 0;
    while (i < text.size())
    {
        auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7F)
        {
            return "control byte " + std::to_string(c) + " at " + std::to_string(i);
        }
        // The lead byte gives the length; every byte after it must be a continuation byte.
        std::size_t length = c < 0x80 ? 1 : c >= 0xF5 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (c >= 0x80 && c < 0xC2)
        {
            length = 0;
        }
        if (length == 0 || i + length > text.size())
        {
            return "invalid UTF-8 at " + std::to_string(i);
        }
        for (std::size_t k = 1; k < length; ++k)
        {
            auto next = static_cast<unsigned char>(text[i + k]);
            if (next < 0x80 || next > 0xBF)
            {
                return "invalid UTF-8 at " + std::to_string(i + k);
            }
        }
        if (c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0)
        {
            return "C1 control at " + std::to_string(i);
        }
        i += length;
    }
    return "";
}

namespace
{

/**
 * Add a section's keys and the names of their choices.
 * @param keys the keys.
 * @param words where to add them.
 */
void
AddKeys(const std::vector<ns3::scenariokeys::KeySpec>& keys, std::set<std::string>& words)
{
    for (const auto& key : keys)
    {
        words.insert(std::string(key.key) + ":");
        for (const auto& choice : key.choices)
        {
            words.insert(choice.name);
        }
    }
}

/// @return the scenario's words.
std::set<std::string>
ScenarioWords()
{
    using namespace ns3::scenariokeys;
    std::set<std::string> words = {"model:",
                                   "training:",
                                   "layout:",
                                   "cluster:",
                                   "collectives:",
                                   "topology:",
                                   "network:",
                                   "preset:",
                                   "gpus:",
                                   "gpu:",
                                   "true",
                                   "false",
                                   "400Gbps",
                                   "1us",
                                   "---",
                                   "!!str",
                                   "&a",
                                   "*a",
                                   "<<:"};
    for (const auto& keys :
         {ModelKeys(), TrainingKeys(), LayoutKeys(), ClusterKeys(), TopologyKeys(), NetworkKeys()})
    {
        AddKeys(keys, words);
    }
    for (const auto& key : CollectiveKeys())
    {
        words.insert(std::string(key.key) + ":");
    }
    for (const auto& name : ns3::TransformerSpec::GetPresetNames())
    {
        words.insert(name);
    }
    for (const auto& name : ns3::GpuSpec::GetPresetNames())
    {
        words.insert(name);
    }
    return words;
}

/// @return the command line's words: every attribute of every TypeId and every global value.
std::set<std::string>
OptionWords()
{
    std::set<std::string> words = {"--help",
                                   "--PrintHelp",
                                   "--PrintTypeIds",
                                   "--PrintGroups",
                                   "--PrintGlobals",
                                   "--PrintVersion",
                                   "--PrintAttributes=",
                                   "--PrintGroup=",
                                   "--count=",
                                   "--bytes=",
                                   "--load=",
                                   "--verbose",
                                   "--buffer=",
                                   "--rate=",
                                   "--delay=",
                                   "--name=",
                                   "--cc=",
                                   "--mtu=",
                                   "Gbps",
                                   "us",
                                   "KiB",
                                   "MB"};
    for (uint16_t i = 0; i < ns3::TypeId::GetRegisteredN(); ++i)
    {
        ns3::TypeId tid = ns3::TypeId::GetRegistered(i);
        words.insert(tid.GetName());
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            words.insert("--" + tid.GetName() + "::" + tid.GetAttribute(a).name + "=");
        }
    }
    for (auto it = ns3::GlobalValue::Begin(); it != ns3::GlobalValue::End(); ++it)
    {
        words.insert("--" + (*it)->GetName() + "=");
    }
    return words;
}

} // namespace

std::vector<std::string>
FuzzDictionary(const std::string& target)
{
    std::set<std::string> words;
    if (target == "scenario")
    {
        words = ScenarioWords();
    }
    else if (target == "options")
    {
        words = OptionWords();
    }
    return {words.begin(), words.end()};
}

} // namespace fuzz
} // namespace llmfabric
