/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-defaults.h"

#include "value-parser.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <arpa/inet.h>
#include <cctype>
#include <limits>

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

/// How an object is written, for messages.
const std::string OBJECT_FORM = "not an object such as ns3::Type or ns3::Type[Name=value|...]";

/**
 * Read the text of a pointer or object-factory attribute ("ns3::Type" or
 * "ns3::Type[Name=value|Name=value]") strictly: ns-3's reader aborts on a type it does not
 * know, one without a constructor, or a "[" without "]", and a pointer's object is created
 * from the text, so its type must be the checker's or a subclass of it.
 * @param checker the attribute's checker.
 * @param value the text.
 * @return "" or why it is refused.
 */
std::string
CheckObjectText(Ptr<const AttributeChecker> checker, const std::string& value)
{
    if (value.find_first_of(" \t\n\r\v\f") != std::string::npos)
    {
        return OBJECT_FORM;
    }
    std::string::size_type open = value.find('[');
    std::string name = value.substr(0, open);
    TypeId tid;
    if (name.empty() || name.find(']') != std::string::npos ||
        !TypeId::LookupByNameFailSafe(name, &tid))
    {
        return OBJECT_FORM + " (no TypeId " + ValueParser::Quote(name, 80) + ")";
    }
    if (!tid.HasConstructor())
    {
        return name + " cannot be created (it has no constructor)";
    }
    auto pointer = DynamicCast<const PointerChecker>(checker);
    if (pointer && tid != pointer->GetPointeeTypeId() &&
        !tid.IsChildOf(pointer->GetPointeeTypeId()))
    {
        return name + " is not a " + pointer->GetPointeeTypeId().GetName();
    }
    if (open == std::string::npos)
    {
        return "";
    }
    if (value.back() != ']' || value.find_first_of("[]", open + 1) != value.size() - 1)
    {
        return OBJECT_FORM;
    }
    std::string list = value.substr(open + 1, value.size() - open - 2);
    std::string::size_type start = 0;
    while (start < list.size())
    {
        std::string::size_type bar = list.find('|', start);
        std::string item = list.substr(start, bar == std::string::npos ? bar : bar - start);
        start = bar == std::string::npos ? list.size() : bar + 1;
        std::string::size_type equal = item.find('=');
        TypeId::AttributeInformation info;
        if (equal == std::string::npos || !tid.LookupAttributeByName(item.substr(0, equal), &info))
        {
            return OBJECT_FORM + " (" + ValueParser::Quote(item, 80) + " is not Name=value of " +
                   name + ")";
        }
        std::string problem = AttributeDefaults::CheckText(info.checker, item.substr(equal + 1));
        if (!problem.empty())
        {
            return item.substr(0, equal) + ": " + problem;
        }
    }
    return "";
}

/**
 * Check text that ns-3's reader will read: its readers abort on text they cannot read (an
 * unknown type for a pointer, a priomap of fewer than 16 numbers, any list of objects, an
 * invalid IPv4 address, a string of two words), so the types it is trusted with are checked
 * first and the others refused.
 * @param type the value's type name, without "ns3::".
 * @param checker the attribute's checker.
 * @param value the text.
 * @return "" or why it is refused.
 */
std::string
CheckForNs3Reader(const std::string& type,
                  Ptr<const AttributeChecker> checker,
                  const std::string& value)
{
    std::string problem;
    if (type == "PointerValue" || type == "ObjectFactoryValue")
    {
        problem = CheckObjectText(checker, value);
    }
    else if (type == "ObjectPtrContainerValue")
    {
        problem = "a list of objects cannot be given as text";
    }
    else if (type == "EnumValue" || type.rfind("EnumValue<", 0) == 0)
    {
        // EnumValue is a class template from ns-3.41 on (EnumValue<T>).
        std::string names = "|" + checker->GetUnderlyingTypeInformation() + "|";
        problem =
            value.find('|') == std::string::npos &&
                    names.find("|" + value + "|") != std::string::npos
                ? ""
                : "not one of " + ValueParser::Escape(checker->GetUnderlyingTypeInformation(), 200);
    }
    else if (type == "Ipv4AddressValue")
    {
        in_addr address;
        problem = inet_pton(AF_INET, value.c_str(), &address) == 1 &&
                          value.find('\0') == std::string::npos
                      ? ""
                      : "not an IPv4 address such as 10.0.0.1";
    }
    else if (type == "Mac48AddressValue")
    {
        bool valid = value.size() == 17;
        for (std::size_t i = 0; valid && i < value.size(); ++i)
        {
            valid = i % 3 == 2 ? value[i] == ':'
                               : std::isxdigit(static_cast<unsigned char>(value[i])) != 0;
        }
        problem = valid ? "" : "not a MAC address such as 00:00:00:00:00:01";
    }
    else if (type == "StringValue")
    {
        // ns-3 reads a string attribute as one word and aborts if anything follows it.
        problem = value.find_first_of(" \t\n\r\v\f") == std::string::npos
                      ? ""
                      : "a text without spaces, tabs or line breaks";
    }
    else
    {
        problem = "cannot be given as text (a " + ValueParser::Escape(type, 80) + ")";
    }
    return problem;
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
        return "no attribute " + ValueParser::Escape(full, 120);
    }
    std::string problem = CheckText(info.checker, value);
    if (!problem.empty())
    {
        return ValueParser::Quote(value, 80) + ": " + problem + " (" + full + ")";
    }
    if (!Config::SetDefaultFailSafe(full, StringValue(value)))
    {
        return ValueParser::Quote(value, 80) + " is not a valid value of " + full;
    }
    m_given[full] = value;
    return "";
}

std::string
AttributeDefaults::CheckText(Ptr<const AttributeChecker> checker, const std::string& value)
{
    // ns-3's own parsers are lenient or abort (an integer reads its leading digits, "1e6" is 1,
    // a size above 32 bits wraps, a malformed time aborts): the common types are read strictly
    // here first, and the checker's range applies to the value read.
    // ns-3 names some value types with "ns3::" and some without (3.37: "TimeValue" but
    // "DataRateValue"): compare the bare names.
    std::string type = checker->GetValueTypeName();
    type = type.rfind("ns3::", 0) == 0 ? type.substr(5) : type;
    std::string minimum;
    std::string maximum;
    // A range that is the type's own (an unbounded double checker's +-1.8e308) says nothing.
    bool ranged = ValueParser::CheckerRange(checker, minimum, maximum) &&
                  maximum.find("e+308") == std::string::npos;
    std::string range = ranged ? " from " + minimum + " to " + maximum : "";
    if (type == "UintegerValue" || type == "IntegerValue")
    {
        bool negative = type == "IntegerValue" && !value.empty() && value[0] == '-';
        uint64_t integer = 0;
        bool overflow = false;
        if (!ValueParser::ParseDecimal(negative ? value.substr(1) : value, integer, overflow))
        {
            return "not a whole number" + range;
        }
        bool fits = !overflow && (negative ? integer <= uint64_t(1) << 63 : true);
        if (!fits || (type == "UintegerValue" && !checker->Check(UintegerValue(integer))) ||
            (type == "IntegerValue" &&
             (integer > uint64_t(INT64_MAX) + (negative ? 1 : 0) ||
              !checker->Check(IntegerValue(negative ? -static_cast<int64_t>(integer - 1) - 1
                                                    : static_cast<int64_t>(integer))))))
        {
            return "out of range" + (ranged ? range : std::string());
        }
        return "";
    }
    if (type == "DoubleValue")
    {
        double number = 0;
        if (!ValueParser::ParseNumber(value, number))
        {
            return "not a number" + range;
        }
        return checker->Check(DoubleValue(number)) ? "" : "out of range" + range;
    }
    if (type == "BooleanValue")
    {
        return value == "true" || value == "false" || value == "1" || value == "0"
                   ? ""
                   : "not true, false, 1 or 0";
    }
    if (type == "DataRateValue")
    {
        DataRate rate;
        return ValueParser::ParseRate(value, rate) ? "" : "not a rate such as 100Gbps";
    }
    if (type == "TimeValue")
    {
        double seconds = 0;
        Time time;
        if (!ValueParser::ParseDelay(value, seconds, time) || seconds < 0)
        {
            return "not a time such as 1us (s, ms, us, ns, ps)";
        }
        if (seconds > ValueParser::MAX_DELAY_SECONDS)
        {
            return "above " + std::to_string(static_cast<int>(ValueParser::MAX_DELAY_SECONDS)) +
                   " s";
        }
        return checker->Check(TimeValue(time)) ? "" : "out of range" + range;
    }
    if (type == "QueueSizeValue")
    {
        uint64_t bytes = 0;
        std::string problem =
            ValueParser::ParseSize(value, std::numeric_limits<uint32_t>::max(), bytes);
        return problem.empty() || problem.rfind("above", 0) != 0
                   ? problem
                   : problem + " (the largest ns3::QueueSize)";
    }
    if (type == "TypeIdValue")
    {
        TypeId tid;
        return TypeId::LookupByNameFailSafe(value, &tid) ? "" : "not a TypeId name";
    }
    std::string problem = CheckForNs3Reader(type, checker, value);
    if (!problem.empty())
    {
        return problem;
    }
    Ptr<AttributeValue> parsed = checker->Create();
    return parsed->DeserializeFromString(value, checker) && checker->Check(*parsed)
               ? ""
               : "not a valid " + type;
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

std::string
AttributeDefaults::GetCurrent(const std::string& name)
{
    TypeId::AttributeInformation info;
    return Lookup(name, info) ? info.initialValue->SerializeToString(info.checker) : "";
}

} // namespace ns3
