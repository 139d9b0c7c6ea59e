/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz-entries.h"

#include "ns3/attribute-defaults.h"
#include "ns3/config.h"
#include "ns3/program-options.h"

#include <cmath>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Fuzz target "options": ProgramOptions::Parse on any command line.
 */

namespace llmfabric
{
namespace fuzz
{

namespace
{

/// Arguments beyond this count are dropped (a command line of a program is short).
constexpr std::size_t MAX_ARGUMENTS = 256;

/// The variables of the fuzzed program, with their defaults.
struct Variables
{
    uint32_t count{4};                                            //!< --count, 1 to 1000
    uint64_t bytes{1000};                                         //!< --bytes, 1 to 10^12
    double load{0.5};                                             //!< --load, 0 to 1
    bool verbose{false};                                          //!< --verbose
    uint64_t buffer{1 << 20};                                     //!< --buffer, 1 B to 1 TiB
    ns3::DataRate rate{ns3::DataRate("100Gbps")};                 //!< --rate
    ns3::Time delay{ns3::MicroSeconds(1)};                        //!< --delay, 0 to 1 s
    std::string name{"run"};                                      //!< --name
    std::string cc{"dcqcn"};                                      //!< --cc
    std::vector<std::string> ccChoices{"none", "fixed", "dcqcn"}; //!< --cc's words
};

/**
 * @param v the variables.
 * @return "" or the first variable outside its declared range.
 */
std::string
CheckRanges(const Variables& v)
{
    if (v.count < 1 || v.count > 1000)
    {
        return "--count out of its range: " + std::to_string(v.count);
    }
    if (v.bytes < 1 || v.bytes > 1000000000000ULL)
    {
        return "--bytes out of its range: " + std::to_string(v.bytes);
    }
    if (!(v.load >= 0 && v.load <= 1))
    {
        return "--load out of its range";
    }
    if (v.buffer < 1 || v.buffer > (uint64_t(1) << 40))
    {
        return "--buffer out of its range: " + std::to_string(v.buffer);
    }
    if (v.rate.GetBitRate() == 0)
    {
        return "--rate is zero";
    }
    if (v.delay.IsStrictlyNegative() || v.delay > ns3::Seconds(1))
    {
        return "--delay out of its range";
    }
    bool chosen = false;
    for (const auto& word : v.ccChoices)
    {
        chosen = chosen || v.cc == word;
    }
    return chosen ? "" : "--cc is not one of its words";
}

} // namespace

std::string
FuzzOptions(const uint8_t* data, std::size_t size)
{
    // The arguments, separated by NUL bytes, after the program's name.
    std::vector<std::string> arguments = {"fuzz-program"};
    std::string text(reinterpret_cast<const char*>(data), size);
    for (std::size_t start = 0; start <= text.size() && arguments.size() <= MAX_ARGUMENTS;)
    {
        std::size_t end = text.find('\0', start);
        end = end == std::string::npos ? text.size() : end;
        arguments.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    std::vector<char*> argv;
    for (auto& argument : arguments)
    {
        argv.push_back(argument.data());
    }
    argv.push_back(nullptr);

    Variables v;
    ns3::AttributeDefaults defaults;
    ns3::ProgramOptions options("fuzz-program", "A program with every kind of option.", &defaults);
    options.AddUnsigned("count", "an integer", v.count, 1, 1000);
    options.AddUnsigned("bytes", "a 64-bit integer", v.bytes, 1, 1000000000000ULL);
    options.AddDouble("load", "a number", v.load, 0, 1);
    options.AddBool("verbose", "a flag", v.verbose);
    options.AddSize("buffer", "a size", v.buffer, 1, uint64_t(1) << 40);
    options.AddRate("rate", "a rate", v.rate);
    options.AddTime("delay", "a time", v.delay, ns3::Seconds(0), ns3::Seconds(1));
    options.AddString("name", "a text", v.name);
    options.AddChoice("cc", "a choice", v.cc, v.ccChoices);
    options.Add("mtu", "an attribute default", "1000", [&defaults](const std::string& value) {
        return defaults.Give("ns3::RdmaQueuePair::Mtu", value);
    });

    std::string message = options.Parse(static_cast<int>(arguments.size()), argv.data());
    std::string problem = CheckMessageLine(message);
    if (problem.empty())
    {
        problem = CheckRanges(v);
    }
    for (const std::string name :
         {"count", "bytes", "load", "verbose", "buffer", "rate", "delay", "name", "cc", "mtu"})
    {
        if (problem.empty() && options.IsGiven(name) && text.find("--" + name) == std::string::npos)
        {
            problem = "--" + name + " reported given but not in the input";
        }
    }
    if (problem.empty() && options.GetUsage().empty())
    {
        problem = "no usage text";
    }
    // Attribute defaults and global values the input set must not reach the next input.
    ns3::Config::Reset();
    return problem.empty() ? "" : "options: " + problem;
}

} // namespace fuzz
} // namespace llmfabric
