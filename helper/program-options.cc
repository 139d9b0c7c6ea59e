/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "program-options.h"

#include "attribute-defaults.h"
#include "value-parser.h"

#include "ns3/abort.h"
#include "ns3/command-line.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgramOptions");

namespace
{

/// The longest an option's name or value is shown in a message.
constexpr std::size_t MAX_SHOWN = 80;

/// ns-3's --Print options that take no value.
const std::set<std::string> PRINT_FLAGS = {"PrintTypeIds",
                                           "PrintGroups",
                                           "PrintGlobals",
                                           "PrintVersion"};

/**
 * @param value a number's text.
 * @param[out] number its value.
 * @return "" or why it is not a whole number without sign.
 */
std::string
ReadUnsigned(const std::string& value, uint64_t& number)
{
    bool overflow = false;
    if (!ValueParser::ParseDecimal(value, number, overflow))
    {
        return "not a whole number";
    }
    return overflow ? "too large" : "";
}

/**
 * @param name a group name.
 * @return whether some TypeId is in that group.
 */
bool
IsGroup(const std::string& name)
{
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        if (TypeId::GetRegistered(i).GetGroupName() == name)
        {
            return true;
        }
    }
    return false;
}

} // namespace

ProgramOptions::ProgramOptions(const std::string& program,
                               const std::string& description,
                               AttributeDefaults* defaults)
    : m_program(program),
      m_description(description),
      m_defaults(defaults)
{
    if (m_defaults == nullptr)
    {
        m_own = std::make_unique<AttributeDefaults>();
        m_defaults = m_own.get();
    }
}

ProgramOptions::~ProgramOptions() = default;

void
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    const std::string& shownDefault,
                    Apply apply)
{
    NS_ABORT_MSG_IF(m_options.count(name) != 0, "ProgramOptions: --" << name << " twice");
    m_options[name] = Option{help, shownDefault, std::move(apply), false};
    m_order.push_back(name);
}

void
ProgramOptions::AddUnsigned(const std::string& name,
                            const std::string& help,
                            uint64_t& value,
                            uint64_t minimum,
                            uint64_t maximum)
{
    AddWhole(name, help, std::to_string(value), minimum, maximum, [&value](uint64_t number) {
        value = number;
    });
}

void
ProgramOptions::AddUnsigned(const std::string& name,
                            const std::string& help,
                            uint32_t& value,
                            uint32_t minimum,
                            uint32_t maximum)
{
    AddWhole(name, help, std::to_string(value), minimum, maximum, [&value](uint64_t number) {
        value = static_cast<uint32_t>(number); // at most maximum, a uint32_t
    });
}

void
ProgramOptions::AddWhole(const std::string& name,
                         const std::string& help,
                         const std::string& shownDefault,
                         uint64_t minimum,
                         uint64_t maximum,
                         std::function<void(uint64_t)> store)
{
    std::string range = "from " + std::to_string(minimum) + " to " + std::to_string(maximum);
    Add(name,
        help + " (" + range + ")",
        shownDefault,
        [store, minimum, maximum, range](const std::string& text) -> std::string {
            uint64_t number = 0;
            std::string problem = ReadUnsigned(text, number);
            if (problem.empty() && (number < minimum || number > maximum))
            {
                problem = "out of range";
            }
            if (!problem.empty())
            {
                return problem + ": expected a whole number " + range;
            }
            store(number);
            return std::string();
        });
}

void
ProgramOptions::AddDouble(const std::string& name,
                          const std::string& help,
                          double& value,
                          double minimum,
                          double maximum)
{
    std::ostringstream range;
    range << "from " << minimum << " to " << maximum;
    std::ostringstream shown;
    shown << value;
    Add(name,
        help + " (" + range.str() + ")",
        shown.str(),
        [&value, minimum, maximum, range = range.str()](const std::string& text) -> std::string {
            double number = 0;
            if (!ValueParser::ParseNumber(text, number))
            {
                return "not a decimal number: expected a number " + range;
            }
            if (number < minimum || number > maximum)
            {
                return "out of range: expected a number " + range;
            }
            value = number;
            return std::string();
        });
}

void
ProgramOptions::AddBool(const std::string& name, const std::string& help, bool& value)
{
    Add(name, help, value ? "1" : "0", [&value](const std::string& text) -> std::string {
        if (text != "1" && text != "0" && text != "true" && text != "false")
        {
            return std::string("expected 1, 0, true or false");
        }
        value = text == "1" || text == "true";
        return std::string();
    });
    m_options[name].flag = true;
}

void
ProgramOptions::AddSize(const std::string& name,
                        const std::string& help,
                        uint64_t& bytes,
                        uint64_t minimum,
                        uint64_t maximum)
{
    Add(name,
        help,
        std::to_string(bytes) + "B",
        [&bytes, minimum, maximum](const std::string& text) -> std::string {
            uint64_t size = 0;
            std::string problem = ValueParser::ParseSize(text, maximum, size);
            if (problem.empty() && size < minimum)
            {
                problem = "below " + std::to_string(minimum) + " bytes";
            }
            if (!problem.empty())
            {
                return problem;
            }
            bytes = size;
            return std::string();
        });
}

void
ProgramOptions::AddRate(const std::string& name, const std::string& help, DataRate& rate)
{
    std::ostringstream shown;
    shown << rate;
    Add(name, help, shown.str(), [&rate](const std::string& text) -> std::string {
        DataRate read;
        if (!ValueParser::ParseRate(text, read))
        {
            return std::string("not a rate such as 100Gbps (a positive number and a unit: bps, "
                               "Kbps, Mbps, Gbps, ... or B/s, KB/s, ...)");
        }
        rate = read;
        return std::string();
    });
}

void
ProgramOptions::AddTime(const std::string& name,
                        const std::string& help,
                        Time& time,
                        Time minimum,
                        Time maximum)
{
    std::ostringstream range;
    range << "from " << minimum.GetSeconds() << " s to " << maximum.GetSeconds() << " s";
    std::ostringstream shown;
    shown << time.As(Time::US);
    Add(name,
        help + " (" + range.str() + ")",
        shown.str(),
        [&time, minimum, maximum, range = range.str()](const std::string& text) -> std::string {
            double seconds = 0;
            Time ignored;
            if (!ValueParser::ParseDelay(text, seconds, ignored))
            {
                return "not a time such as 1us (a number and s, ms, us, ns or ps)";
            }
            if (seconds < minimum.GetSeconds() || seconds > maximum.GetSeconds())
            {
                return "out of range: expected a time " + range;
            }
            time = Seconds(seconds);
            return std::string();
        });
}

void
ProgramOptions::AddString(const std::string& name, const std::string& help, std::string& value)
{
    Add(name, help, value, [&value](const std::string& text) -> std::string {
        value = text;
        return std::string();
    });
}

void
ProgramOptions::AddRequired(const std::string& name,
                            const std::string& help,
                            std::string& value,
                            const std::string& reason)
{
    AddString(name, help, value);
    m_required.emplace_back(name, &value, reason);
}

void
ProgramOptions::AddChoice(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          const std::vector<std::string>& choices)
{
    std::string list;
    for (const std::string& c : choices)
    {
        list += (list.empty() ? "" : ", ") + c;
    }
    Add(name,
        help + " (" + list + ")",
        value,
        [&value, choices, list](const std::string& text) -> std::string {
            for (const std::string& c : choices)
            {
                if (text == c)
                {
                    value = text;
                    return std::string();
                }
            }
            return "expected one of " + list;
        });
}

std::string
ProgramOptions::ReadWhole(const std::string& text, uint64_t maximum, uint64_t& number)
{
    uint64_t read = 0;
    std::string problem = ReadUnsigned(text, read);
    if (problem.empty() && read > maximum)
    {
        problem = "out of range";
    }
    if (!problem.empty())
    {
        return problem + ": expected a whole number from 0 to " + std::to_string(maximum);
    }
    number = read;
    return "";
}

void
ProgramOptions::AddValue(const std::string& name, const std::string& attributePath)
{
    Add(name, attributePath, "", [this, attributePath](const std::string& text) {
        return m_defaults->Give(attributePath, text);
    });
}

void
ProgramOptions::AddValue(const std::string& name,
                         const std::string& help,
                         Callback<bool, std::string> callback)
{
    Add(name, help, "", [callback](const std::string& text) -> std::string {
        return callback(text) ? "" : "refused";
    });
}

std::string
ProgramOptions::Parse(int argc, char* argv[])
{
    // The programs run on this module's WindowedCalendarScheduler (buckets over a window of
    // time that slides with the clock, a heap beyond it) rather than ns-3's default map
    // scheduler (a tree node allocated per event): events leave every ns-3 scheduler in the
    // same order (time, then scheduling order), so a run's results are the same, and the
    // calendar does less work per event than a tree or a heap at the hundreds to thousands of
    // events a fabric keeps pending (see "Port device and link" in the documentation).
    // --SchedulerType on the command line, parsed below, or SchedulerType in NS_GLOBAL_VALUE
    // wins.
    // They run on LeanSimulatorImpl, ns-3's sequential simulator without its per-event hook
    // and logging (the same events in the same order). Either is chosen the same way:
    // --SimulatorImplementationType on the command line, or NS_GLOBAL_VALUE, wins.
    const char* environment = std::getenv("NS_GLOBAL_VALUE");
    const std::string globals = environment ? environment : "";
    if (globals.find("SchedulerType=") == std::string::npos)
    {
        GlobalValue::Bind("SchedulerType", StringValue(DEFAULT_SCHEDULER));
    }
    if (globals.find("SimulatorImplementationType=") == std::string::npos)
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue(DEFAULT_SIMULATOR));
    }
    for (int i = 1; i < argc; ++i)
    {
        std::string problem = ParseOne(argv[i]);
        if (!problem.empty())
        {
            return ValueParser::Escape(problem, 400, false);
        }
    }
    if (m_help || !m_print.empty())
    {
        return "";
    }
    for (const auto& [name, value, reason] : m_required)
    {
        if (value->empty())
        {
            return ValueParser::Escape("--" + name + ": " + reason, 400, false);
        }
    }
    return "";
}

std::string
ProgramOptions::ParseOne(const std::string& arg)
{
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0)
    {
        return ValueParser::Quote(arg, MAX_SHOWN) + ": not an option (options are --name=value)";
    }
    std::string::size_type equal = arg.find('=');
    bool hasValue = equal != std::string::npos;
    std::string name = arg.substr(2, hasValue ? equal - 2 : std::string::npos);
    std::string value = hasValue ? arg.substr(equal + 1) : "";
    std::string shown = "--" + ValueParser::Escape(name, MAX_SHOWN);
    auto option = m_options.find(name);
    if (option != m_options.end())
    {
        if (!hasValue && !option->second.flag)
        {
            return shown + ": needs a value (" + shown + "=VALUE)";
        }
        std::string problem = option->second.apply(hasValue ? value : "true");
        if (!problem.empty())
        {
            return shown + ": " + ValueParser::Quote(value, MAX_SHOWN) + ": " + problem;
        }
        m_given.insert(name);
        return "";
    }
    if (name == "help" || name == "PrintHelp")
    {
        m_help = true;
        return "";
    }
    bool known = false;
    std::string problem = ParseNs3(name, value, hasValue, known);
    if (known)
    {
        return problem.empty() ? "" : shown + ": " + problem;
    }
    if (name.find("::") != std::string::npos)
    {
        if (!hasValue)
        {
            return shown + ": needs a value (" + shown + "=VALUE)";
        }
        problem = m_defaults->Give(name, value);
        return problem.empty() ? "" : shown + ": " + problem;
    }
    return shown + ": unknown option (--help lists them)";
}

std::string
ProgramOptions::ParseNs3(const std::string& name,
                         const std::string& value,
                         bool hasValue,
                         bool& known)
{
    known = true;
    if (PRINT_FLAGS.count(name) != 0)
    {
        m_print.push_back("--" + name);
        return "";
    }
    if (name == "PrintAttributes" || name == "PrintGroup")
    {
        TypeId tid;
        bool valid =
            name == "PrintAttributes" ? TypeId::LookupByNameFailSafe(value, &tid) : IsGroup(value);
        if (!valid)
        {
            return ValueParser::Quote(value, MAX_SHOWN) + ": " +
                   (name == "PrintAttributes" ? "not a TypeId name (--PrintTypeIds lists them)"
                                              : "not a group (--PrintGroups lists them)");
        }
        m_print.push_back("--" + name + "=" + value);
        return "";
    }
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() != name)
        {
            continue;
        }
        if ((name == "RngRun" || name == "RngSeed") && m_options.count("seed") != 0)
        {
            return "not used by this program: its run number is --seed";
        }
        if (!hasValue)
        {
            return "needs a value";
        }
        std::string problem = AttributeDefaults::CheckText((*it)->GetChecker(), value);
        if (problem.empty() && !GlobalValue::BindFailSafe(name, StringValue(value)))
        {
            problem = "not a valid value";
        }
        return problem.empty() ? "" : ValueParser::Quote(value, MAX_SHOWN) + ": " + problem;
    }
    known = false;
    return "";
}

void
ProgramOptions::ParseOrExit(int argc, char* argv[])
{
    std::string problem = Parse(argc, argv);
    if (!problem.empty())
    {
        std::cerr << m_program << ": " << problem << std::endl;
        std::exit(2);
    }
    if (m_help)
    {
        std::cout << GetUsage();
        std::exit(0);
    }
    if (!m_print.empty())
    {
        // ns-3 prints its listings and exits: its arguments were checked above.
        std::vector<std::string> args{m_program};
        args.insert(args.end(), m_print.begin(), m_print.end());
        std::vector<char*> pointers;
        for (std::string& a : args)
        {
            pointers.push_back(a.data());
        }
        CommandLine cmd;
        cmd.Parse(static_cast<int>(pointers.size()), pointers.data());
        std::exit(0);
    }
}

bool
ProgramOptions::IsGiven(const std::string& name) const
{
    return m_given.count(name) != 0;
}

bool
ProgramOptions::WantsHelp() const
{
    return m_help;
}

std::string
ProgramOptions::GetUsage() const
{
    std::ostringstream out;
    out << m_program << " [--option=value ...]\n\n" << m_description << "\n\nProgram options:\n";
    for (const std::string& name : m_order)
    {
        const Option& o = m_options.at(name);
        out << "    --" << name << ": " << o.help;
        if (!o.shownDefault.empty())
        {
            out << " [" << o.shownDefault << "]";
        }
        out << "\n";
    }
    out << "\nAny attribute default: --ns3::Class::Attribute=value (--PrintAttributes=ns3::Class "
           "lists a class's);\nglobal values: --SchedulerType=..., --ChecksumEnabled=...;\n"
           "listings: --PrintTypeIds, --PrintGroups, --PrintGlobals, --PrintVersion, "
           "--PrintGroup=GROUP.\n";
    return out.str();
}

std::string
ProgramOptions::CheckPrefix(const std::string& prefix)
{
    std::filesystem::path folder = std::filesystem::path(prefix).parent_path();
    if (folder.empty())
    {
        return "";
    }
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error))
    {
        return "the folder " + ValueParser::Quote(folder.string(), MAX_SHOWN) + " does not exist";
    }
    return "";
}

} // namespace ns3
