/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-faults.h"

#include "value-parser.h"

#include "ns3/log.h"

#include <map>
#include <set>
#include <yaml-cpp/yaml.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioFaults");

namespace
{

/// The longest value a message shows.
constexpr std::size_t MAX_SHOWN = 80;

/// The keys of each kind (besides kind), and which are required.
struct KindKeys
{
    std::set<std::string> required; //!< must be present
    std::set<std::string> optional; //!< may be present
};

/**
 * @return the keys of each kind of entry.
 */
const std::map<std::string, KindKeys>&
Kinds()
{
    static const std::map<std::string, KindKeys> kinds = {
        {"link_down", {{"link", "at"}, {}}},
        {"link_up", {{"link", "at"}, {}}},
        {"link_degrade", {{"link", "at", "fraction"}, {}}},
        {"link_ber", {{"link", "ber"}, {"at"}}},
        {"nic_down", {{"host", "at"}, {}}},
        {"nic_up", {{"host", "at"}, {}}},
        {"straggler", {{"rank", "factor"}, {"from", "first_iteration", "iterations"}}},
    };
    return kinds;
}

/**
 * @param keys names.
 * @return them, comma-separated.
 */
std::string
Join(const std::set<std::string>& keys)
{
    std::string text;
    for (const auto& k : keys)
    {
        text += (text.empty() ? "" : ", ") + k;
    }
    return text;
}

/**
 * Read an unsigned integer.
 * @param text the value.
 * @param max the largest accepted.
 * @param[out] value its value.
 * @return "" or why not.
 */
std::string
ReadUnsigned(const std::string& text, uint64_t max, uint64_t& value)
{
    bool overflow = false;
    if (!ValueParser::ParseDecimal(text, value, overflow) || overflow)
    {
        return ValueParser::Quote(text, MAX_SHOWN) + " is not an unsigned integer";
    }
    if (value > max)
    {
        return ValueParser::Quote(text, MAX_SHOWN) + " is above " + std::to_string(max);
    }
    return "";
}

/**
 * Read one entry.
 * @param entry its scalar values by key (kind included).
 * @param gpus the number of GPUs.
 * @param[out] key the key a problem is about.
 * @param out where a fault or straggler goes.
 * @param index the entry's index.
 * @return "" or the problem.
 */
std::string
ReadEntry(const std::map<std::string, std::string>& entry,
          uint32_t gpus,
          std::string& key,
          ScenarioFaults& out,
          uint32_t index)
{
    const std::string& kind = entry.at("kind");
    auto it = Kinds().find(kind);
    key = "kind";
    if (it == Kinds().end())
    {
        std::set<std::string> names;
        for (const auto& [name, keys] : Kinds())
        {
            names.insert(name);
        }
        return ValueParser::Quote(kind, MAX_SHOWN) + " is not a fault kind (known: " + Join(names) +
               ")";
    }
    const KindKeys& keys = it->second;
    for (const auto& [k, value] : entry)
    {
        if (k != "kind" && keys.required.count(k) == 0 && keys.optional.count(k) == 0)
        {
            key = k;
            std::set<std::string> all = keys.required;
            all.insert(keys.optional.begin(), keys.optional.end());
            return "not a key of a " + kind + " entry (its keys: kind, " + Join(all) + ")";
        }
    }
    for (const auto& k : keys.required)
    {
        if (entry.count(k) == 0)
        {
            key = k;
            return "required for a " + kind + " entry";
        }
    }
    if (kind == "straggler")
    {
        StragglerSpec s;
        uint64_t v = 0;
        key = "rank";
        std::string problem = ReadUnsigned(entry.at("rank"), gpus - 1, v);
        if (!problem.empty())
        {
            return problem + (problem.find("above") != std::string::npos ? " (the last rank)" : "");
        }
        s.rank = static_cast<uint32_t>(v);
        key = "factor";
        if (!ValueParser::ParseNumber(entry.at("factor"), s.factor) || s.factor < 0.01 ||
            s.factor > 1000)
        {
            return ValueParser::Quote(entry.at("factor"), MAX_SHOWN) +
                   " is not a number in [0.01, 1000]";
        }
        if (entry.count("from") != 0)
        {
            key = "from";
            problem = FaultInjector::ParseTime(entry.at("from"), s.from);
            if (!problem.empty())
            {
                return problem;
            }
        }
        for (const char* k : {"first_iteration", "iterations"})
        {
            if (entry.count(k) != 0)
            {
                key = k;
                problem = ReadUnsigned(entry.at(k), 0xFFFFFFFFULL, v);
                if (!problem.empty())
                {
                    return problem;
                }
                (std::string(k) == "iterations" ? s.iterations : s.firstIteration) =
                    static_cast<uint32_t>(v);
            }
        }
        out.stragglers.push_back(s);
        return "";
    }
    static const std::map<std::string, FaultEvent::Kind> kinds = {
        {"link_down", FaultEvent::LINK_DOWN},
        {"link_up", FaultEvent::LINK_UP},
        {"link_degrade", FaultEvent::LINK_DEGRADE},
        {"link_ber", FaultEvent::LINK_BER},
        {"nic_down", FaultEvent::NIC_DOWN},
        {"nic_up", FaultEvent::NIC_UP}};
    FaultEvent f;
    f.kind = kinds.at(kind);
    if (entry.count("at") != 0)
    {
        key = "at";
        std::string problem = FaultInjector::ParseTime(entry.at("at"), f.at);
        if (!problem.empty())
        {
            return problem;
        }
    }
    if (entry.count("link") != 0)
    {
        key = "link";
        std::string problem = FaultInjector::ParseLinkName(entry.at("link"), f.from, f.to, f.index);
        if (!problem.empty())
        {
            return problem;
        }
    }
    if (entry.count("host") != 0)
    {
        key = "host";
        f.from = entry.at("host");
        if (f.from.empty() || f.from.find(':') != std::string::npos)
        {
            return ValueParser::Quote(f.from, MAX_SHOWN) + " is not a host name such as host3";
        }
    }
    for (const char* k : {"fraction", "ber"})
    {
        if (entry.count(k) != 0)
        {
            key = k;
            if (!ValueParser::ParseNumber(entry.at(k), f.value))
            {
                return ValueParser::Quote(entry.at(k), MAX_SHOWN) + " is not a number";
            }
            bool ok = std::string(k) == "fraction" ? (f.value > 0.0 && f.value <= 1.0)
                                                   : (f.value >= 0.0 && f.value <= 1.0);
            if (!ok)
            {
                return entry.at(k) + " is not in " +
                       (std::string(k) == "fraction" ? "(0, 1]" : "[0, 1]");
            }
        }
    }
    out.faults.push_back(f);
    out.faultEntries.push_back(index);
    return "";
}

} // namespace

std::string
ReadScenarioFaults(const YAML::Node& section, uint32_t gpus, ScenarioFaults& out)
{
    if (section.IsNull())
    {
        return "";
    }
    if (!section.IsSequence())
    {
        return "faults: expected a list of entries, each with a kind";
    }
    ScenarioFaults read;
    for (std::size_t i = 0; i < section.size(); ++i)
    {
        std::string where = "faults[" + std::to_string(i) + "]";
        const YAML::Node& node = section[i];
        if (!node.IsMap())
        {
            return where + ": expected a mapping with a kind";
        }
        std::map<std::string, std::string> entry;
        for (const auto& item : node)
        {
            if (!item.first.IsScalar())
            {
                return where + ": expected plain keys";
            }
            std::string k = item.first.Scalar();
            if (!item.second.IsScalar())
            {
                return where + "." + ValueParser::Escape(k, MAX_SHOWN) + ": expected a value";
            }
            if (entry.count(k) != 0)
            {
                return where + "." + ValueParser::Escape(k, MAX_SHOWN) + ": duplicate key";
            }
            entry[k] = item.second.Scalar();
        }
        if (entry.count("kind") == 0)
        {
            return where + ".kind: required (link_down, link_up, link_degrade, link_ber, "
                           "nic_down, nic_up, straggler)";
        }
        std::string key;
        std::string problem = ReadEntry(entry, gpus, key, read, static_cast<uint32_t>(i));
        if (!problem.empty())
        {
            return where + "." + ValueParser::Escape(key, MAX_SHOWN) + ": " + problem;
        }
    }
    out = read;
    return "";
}

std::string
ParseStragglers(const std::string& text, uint32_t gpus, std::vector<StragglerSpec>& out)
{
    if (text.empty())
    {
        return "";
    }
    std::vector<StragglerSpec> parsed;
    std::size_t start = 0;
    while (start <= text.size())
    {
        std::size_t end = text.find(',', start);
        std::string item = text.substr(start, end == std::string::npos ? end : end - start);
        std::size_t eq = item.find('=');
        StragglerSpec s;
        uint64_t rank = 0;
        if (eq == std::string::npos)
        {
            return ValueParser::Quote(item, MAX_SHOWN) + ": expected RANK=FACTOR (e.g. 3=2)";
        }
        if (!ReadUnsigned(item.substr(0, eq), gpus - 1, rank).empty())
        {
            return ValueParser::Quote(item, MAX_SHOWN) + ": the rank is not in 0.." +
                   std::to_string(gpus - 1);
        }
        s.rank = static_cast<uint32_t>(rank);
        if (!ValueParser::ParseNumber(item.substr(eq + 1), s.factor) || s.factor < 0.01 ||
            s.factor > 1000)
        {
            return ValueParser::Quote(item, MAX_SHOWN) +
                   ": the factor is not a number in [0.01, 1000]";
        }
        parsed.push_back(s);
        if (end == std::string::npos)
        {
            break;
        }
        start = end + 1;
    }
    out.insert(out.end(), parsed.begin(), parsed.end());
    return "";
}

} // namespace ns3
