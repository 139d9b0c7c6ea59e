/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-defaults.h"

#include "value-parser.h"

#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AttributeDefaults");

namespace
{

/**
 * @param name "ns3::Type::Attribute" or "Type::Attribute".
 * @return the name with the "ns3::" prefix.
 */
std::string
FullName(const std::string& name)
{
    return name.rfind("ns3::", 0) == 0 ? name : "ns3::" + name;
}

/**
 * @param name an attribute's full name.
 * @param[out] info its information, if found.
 * @return whether the name is Type::Attribute of a registered type.
 */
bool
Lookup(const std::string& name, TypeId::AttributeInformation& info)
{
    std::string::size_type split = name.rfind("::");
    TypeId tid;
    return split != std::string::npos && split > 0 &&
           TypeId::LookupByNameFailSafe(name.substr(0, split), &tid) &&
           tid.LookupAttributeByName(name.substr(split + 2), &info);
}

/**
 * @return the defaults that Offer set in this process, by attribute (as text): a later job sees
 * them as a scenario's, not as the program's own choice.
 */
std::map<std::string, std::string>&
Offered()
{
    static std::map<std::string, std::string> offered;
    return offered;
}

} // namespace

void
AttributeDefaults::RecordCommandLine(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        std::string::size_type equal = arg.find('=');
        if (arg.rfind("--", 0) != 0 || equal == std::string::npos)
        {
            continue;
        }
        std::string name = FullName(arg.substr(2, equal - 2));
        TypeId::AttributeInformation info;
        if (name.find("::", 5) != std::string::npos && Lookup(name, info))
        {
            m_given[name] = arg.substr(equal + 1);
        }
    }
}

std::string
AttributeDefaults::Give(const std::string& name, const std::string& value)
{
    std::string full = FullName(name);
    TypeId::AttributeInformation info;
    if (!Lookup(full, info))
    {
        return "no attribute " + full;
    }
    // ns-3 aborts on a malformed integer or double: read those strictly first.
    const std::string type = info.checker->GetValueTypeName();
    uint64_t integer = 0;
    bool overflow = false;
    double number = 0;
    bool integral = type == "ns3::UintegerValue" || type == "ns3::IntegerValue";
    std::string digits =
        type == "ns3::IntegerValue" && !value.empty() && value[0] == '-' ? value.substr(1) : value;
    if ((integral && (!ValueParser::ParseDecimal(digits, integer, overflow) || overflow)) ||
        (type == "ns3::DoubleValue" && !ValueParser::ParseNumber(value, number)))
    {
        return "'" + value + "' is not " + (integral ? "a whole number" : "a number") + " (" +
               full + ")";
    }
    if (!Config::SetDefaultFailSafe(full, StringValue(value)))
    {
        return "'" + value + "' is not a valid value of " + full;
    }
    m_given[full] = value;
    return "";
}

void
AttributeDefaults::MarkGiven(const std::string& name)
{
    m_marked.insert(name);
}

bool
AttributeDefaults::IsGiven(const std::string& name) const
{
    return m_given.count(FullName(name)) != 0 || m_marked.count(name) != 0;
}

bool
AttributeDefaults::Offer(const std::string& name, const AttributeValue& value) const
{
    TypeId::AttributeInformation info;
    if (!Lookup(name, info))
    {
        NS_LOG_WARN("no attribute " << name);
        return false;
    }
    if (IsGiven(name))
    {
        NS_LOG_INFO(name << ": the command line's " << m_given.at(FullName(name))
                         << " wins over the scenario's");
        return false;
    }
    std::string current = info.initialValue->SerializeToString(info.checker);
    auto offered = Offered().find(name);
    bool scenarios = offered != Offered().end() && offered->second == current;
    if (current != info.originalInitialValue->SerializeToString(info.checker) && !scenarios)
    {
        NS_LOG_INFO(name << ": the program's default " << current << " wins over the scenario's");
        return false;
    }
    Config::SetDefault(name, value);
    Offered()[name] = value.SerializeToString(info.checker);
    return true;
}

void
AttributeDefaults::Reapply() const
{
    for (const auto& [name, value] : m_given)
    {
        Config::SetDefault(name, StringValue(value));
    }
}

} // namespace ns3
