/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PROGRAM_OPTIONS_H
#define PROGRAM_OPTIONS_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace ns3
{

class AttributeDefaults;

/**
 * @ingroup llm-fabric
 * @brief The command line of a program, read strictly in one place: every option's whole text
 * is its value (no trailing characters, no missing unit, no exponent or fraction in an integer,
 * no sign where none belongs), within a stated range, never wrapping; a problem is one line that
 * names the option, and Parse returns it instead of exiting (so that it can be tested and
 * fuzzed).
 *
 * Besides the program's own options it reads what ns-3's CommandLine reads:
 * - an attribute default, --ns3::Class::Attribute=VALUE (or without "ns3::"), read strictly for
 *   its type by AttributeDefaults::CheckText and recorded as the user's choice (so that a
 *   scenario's value does not replace it);
 * - a global value (--RngRun, --RngSeed, --SchedulerType, ...), read strictly; a program that
 *   has its own --seed refuses --RngRun and --RngSeed instead of ignoring them;
 * - --help and --PrintHelp (usage), and ns-3's --PrintTypeIds, --PrintGroups, --PrintGlobals,
 *   --PrintVersion, --PrintAttributes=TYPEID and --PrintGroup=GROUP, whose argument is checked
 *   before ns-3 prints (it aborts on an unknown TypeId).
 */
class ProgramOptions
{
  public:
    /**
     * Applies an option's text.
     * @param value the text after "=".
     * @return "" or why it is refused (without the option's name).
     */
    using Apply = std::function<std::string(const std::string& value)>;

    /**
     * @param program the program's name, as messages start.
     * @param description what it does, for the usage text.
     * @param defaults where attribute defaults given on the command line are recorded; null for
     * a record of this object's own.
     */
    ProgramOptions(const std::string& program,
                   const std::string& description,
                   AttributeDefaults* defaults = nullptr);
    ~ProgramOptions();

    /**
     * An integer option.
     * @param name the option, without "--".
     * @param help its help.
     * @param value the variable, set only by a valid value (its value is the default shown).
     * @param minimum the least value.
     * @param maximum the largest value.
     */
    void AddUnsigned(const std::string& name,
                     const std::string& help,
                     uint32_t& value,
                     uint32_t minimum,
                     uint32_t maximum);
    /// @copydoc AddUnsigned(const std::string&,const std::string&,uint32_t&,uint32_t,uint32_t)
    void AddUnsigned(const std::string& name,
                     const std::string& help,
                     uint64_t& value,
                     uint64_t minimum,
                     uint64_t maximum);

    /**
     * A decimal number.
     * @param name the option.
     * @param help its help.
     * @param value the variable.
     * @param minimum the least value.
     * @param maximum the largest value.
     */
    void AddDouble(const std::string& name,
                   const std::string& help,
                   double& value,
                   double minimum,
                   double maximum);

    /**
     * A boolean: 1, 0, true, false, or the name alone for true.
     * @param name the option.
     * @param help its help.
     * @param value the variable.
     */
    void AddBool(const std::string& name, const std::string& help, bool& value);

    /**
     * A size in bytes with its unit (ValueParser::ParseSize).
     * @param name the option.
     * @param help its help.
     * @param bytes the variable.
     * @param minimum the least size.
     * @param maximum the largest size.
     */
    void AddSize(const std::string& name,
                 const std::string& help,
                 uint64_t& bytes,
                 uint64_t minimum,
                 uint64_t maximum);

    /**
     * A positive rate with its unit (ValueParser::ParseRate).
     * @param name the option.
     * @param help its help.
     * @param rate the variable.
     */
    void AddRate(const std::string& name, const std::string& help, DataRate& rate);

    /**
     * A time with its unit (s, ms, us, ns, ps).
     * @param name the option.
     * @param help its help.
     * @param time the variable.
     * @param minimum the least time.
     * @param maximum the longest time.
     */
    void AddTime(const std::string& name,
                 const std::string& help,
                 Time& time,
                 Time minimum,
                 Time maximum);

    /**
     * Any text.
     * @param name the option.
     * @param help its help.
     * @param value the variable.
     */
    void AddString(const std::string& name, const std::string& help, std::string& value);

    /**
     * A text option the program cannot run without: Parse refuses a command line that leaves
     * it empty with "--name: reason" (unless it asks for --help or an ns-3 --Print listing),
     * after every option was read, in the order the required options were added.
     * @param name the option.
     * @param help its help.
     * @param value the variable.
     * @param reason what Parse says when it is empty, such as "a scenario file is required".
     */
    void AddRequired(const std::string& name,
                     const std::string& help,
                     std::string& value,
                     const std::string& reason);

    /**
     * One of a list of words.
     * @param name the option.
     * @param help its help.
     * @param value the variable.
     * @param choices the words.
     */
    void AddChoice(const std::string& name,
                   const std::string& help,
                   std::string& value,
                   const std::vector<std::string>& choices);

    /**
     * An option read by a function (for example one that gives an attribute default).
     * @param name the option.
     * @param help its help.
     * @param shownDefault the default the usage text shows ("" for none).
     * @param apply reads and applies the text.
     */
    void Add(const std::string& name,
             const std::string& help,
             const std::string& shownDefault,
             Apply apply);

    /**
     * An option in ns-3's CommandLine style: its type is the variable's (an unsigned or signed
     * integer, double, bool, std::string, DataRate or Time), read strictly over the type's whole
     * range (a program checks its own narrower range after Parse).
     * @param name the option.
     * @param help its help.
     * @param value the variable.
     */
    template <typename T>
    void AddValue(const std::string& name, const std::string& help, T& value);

    /**
     * An option that sets an attribute default (CommandLine::AddValue(name, attributePath)).
     * @param name the option.
     * @param attributePath the attribute's full name, e.g. "ns3::RdmaQueuePair::Recovery".
     */
    void AddValue(const std::string& name, const std::string& attributePath);

    /**
     * An option read by an ns-3 callback (CommandLine's callback form); false refuses the value.
     * @param name the option.
     * @param help its help.
     * @param callback reads the text.
     */
    void AddValue(const std::string& name,
                  const std::string& help,
                  Callback<bool, std::string> callback);

    /**
     * Read a command line. Options are applied in order; the first problem stops it.
     * @param argc the argument count.
     * @param argv the arguments (argv[0] the program).
     * @return "" or the problem, "--option: reason", one line.
     */
    std::string Parse(int argc, char* argv[]);

    /**
     * Parse, and leave as a program does: with the usage text and status 0 for --help, with
     * ns-3's listing for its --Print options, and with "program: --option: reason" on stderr
     * and status 2 for a problem.
     * @param argc the argument count.
     * @param argv the arguments.
     */
    void ParseOrExit(int argc, char* argv[]);

    /**
     * @param name an option's name, without "--".
     * @return whether the command line gave it (and it was valid).
     */
    bool IsGiven(const std::string& name) const;

    /// @return whether the command line asked for the usage text.
    bool WantsHelp() const;

    /// @return the usage text.
    std::string GetUsage() const;

    /**
     * Check a file prefix (such as --pcap's): its folder must exist.
     * @param prefix the prefix.
     * @return "" or why it cannot be used.
     */
    static std::string CheckPrefix(const std::string& prefix);

    /// The event scheduler the programs choose unless told otherwise (--SchedulerType, or
    /// SchedulerType in NS_GLOBAL_VALUE): this module's WindowedCalendarScheduler.
    static constexpr const char* DEFAULT_SCHEDULER = "ns3::WindowedCalendarScheduler";

    /// The simulator implementation the programs choose unless told otherwise
    /// (--SimulatorImplementationType, or SimulatorImplementationType in NS_GLOBAL_VALUE): this
    /// module's LeanSimulatorImpl.
    static constexpr const char* DEFAULT_SIMULATOR = "ns3::LeanSimulatorImpl";

    /// The longest time AddValue reads for a Time option, in seconds.
    static constexpr double MAX_TIME_SECONDS = 1e6;

    /**
     * Read a whole number without sign.
     * @param text the text.
     * @param maximum the largest value.
     * @param[out] number its value.
     * @return "" or why it is refused.
     */
    static std::string ReadWhole(const std::string& text, uint64_t maximum, uint64_t& number);

  private:
    /**
     * A whole-number option (AddUnsigned's work).
     * @param name the option.
     * @param help its help.
     * @param shownDefault its default as shown.
     * @param minimum the least value.
     * @param maximum the largest value.
     * @param store keeps a valid value.
     */
    void AddWhole(const std::string& name,
                  const std::string& help,
                  const std::string& shownDefault,
                  uint64_t minimum,
                  uint64_t maximum,
                  std::function<void(uint64_t)> store);

    /// An option of the program.
    struct Option
    {
        std::string help;         //!< its help
        std::string shownDefault; //!< default in the usage text
        Apply apply;              //!< reads it
        bool flag{false};         //!< may be given without a value (true)
    };

    /**
     * Read one argument.
     * @param arg the argument.
     * @return "" or the problem.
     */
    std::string ParseOne(const std::string& arg);

    /**
     * Read an ns-3 option that is not an attribute: a global value or a --Print option.
     * @param name the name.
     * @param value the value ("" if none was given).
     * @param hasValue whether "=" was given.
     * @param[out] known set if the name is one.
     * @return "" or the problem.
     */
    std::string ParseNs3(const std::string& name,
                         const std::string& value,
                         bool hasValue,
                         bool& known);

    std::string m_program;                    //!< the program's name
    std::string m_description;                //!< what it does
    AttributeDefaults* m_defaults;            //!< where attribute defaults are recorded
    std::unique_ptr<AttributeDefaults> m_own; //!< a record of its own, if none was given
    std::map<std::string, Option> m_options;  //!< by name
    std::vector<std::string> m_order;         //!< names in the order added
    std::set<std::string> m_given;            //!< names given
    bool m_help{false};                       //!< --help seen
    std::vector<std::string> m_print;         //!< ns-3 --Print options to run, as given
    /// The required options: name, variable and what to say when it is empty, in order.
    std::vector<std::tuple<std::string, const std::string*, std::string>> m_required;
};

template <typename T>
void
ProgramOptions::AddValue(const std::string& name, const std::string& help, T& value)
{
    if constexpr (std::is_same_v<T, bool>)
    {
        AddBool(name, help, value);
    }
    else if constexpr (std::is_same_v<T, std::string>)
    {
        AddString(name, help, value);
    }
    else if constexpr (std::is_same_v<T, DataRate>)
    {
        AddRate(name, help, value);
    }
    else if constexpr (std::is_same_v<T, Time>)
    {
        AddTime(name, help, value, Time(0), Seconds(MAX_TIME_SECONDS));
    }
    else if constexpr (std::is_same_v<T, double>)
    {
        AddDouble(name,
                  help,
                  value,
                  std::numeric_limits<double>::lowest(),
                  std::numeric_limits<double>::max());
    }
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
    {
        Add(name, help, std::to_string(value), [&value](const std::string& text) -> std::string {
            uint64_t number = 0;
            std::string problem = ReadWhole(text, std::numeric_limits<T>::max(), number);
            value = problem.empty() ? static_cast<T>(number) : value;
            return problem;
        });
    }
    else
    {
        static_assert(std::is_integral_v<T> && std::is_signed_v<T>, "unsupported option type");
        Add(name, help, std::to_string(value), [&value](const std::string& text) -> std::string {
            bool negative = !text.empty() && text[0] == '-';
            uint64_t magnitude = 0;
            uint64_t limit =
                static_cast<uint64_t>(std::numeric_limits<T>::max()) + (negative ? 1 : 0);
            std::string problem = ReadWhole(negative ? text.substr(1) : text, limit, magnitude);
            if (problem.empty())
            {
                value = negative ? static_cast<T>(-static_cast<int64_t>(magnitude - 1) - 1)
                                 : static_cast<T>(magnitude);
            }
            return problem;
        });
    }
}

} // namespace ns3

#endif /* PROGRAM_OPTIONS_H */
