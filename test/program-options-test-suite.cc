/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/attribute-defaults.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/global-value.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/program-options.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of ProgramOptions: the command-line values that ns-3's CommandLine took wrongly or
 * aborted on (the list: --bytes=1e6 meant 1 byte, --senders=8abc meant 8, --mtu=1000.5
 * and --iterations=2.5 were truncated, --iterations=-1 became 4294967295, --linkRate=100 was
 * 100 bit/s, --linkDelay=-1us, --sampleInterval=abc, --PrintAttributes=bogus and
 * --ns3::Dcqcn::G=abc aborted, --RngRun was accepted and ignored) are each refused with one line
 * naming the option, and valid values are read exactly.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * A program's options, as the examples declare them.
 */
struct Options
{
    uint32_t senders{16};                  //!< --senders
    uint64_t bytes{1000000};               //!< --bytes
    uint32_t mtu{1000};                    //!< --mtu
    uint32_t iterations{1};                //!< --iterations
    DataRate linkRate{"100Gbps"};          //!< --linkRate
    Time linkDelay{MicroSeconds(1)};       //!< --linkDelay
    Time sampleInterval{MicroSeconds(10)}; //!< --sampleInterval
    uint64_t bufferSize{12000000};         //!< --bufferSize
    double pmax{0.2};                      //!< --pmax
    bool pfc{true};                        //!< --pfc
    std::string cc{"dcqcn"};               //!< --cc
    std::string pcap;                      //!< --pcap
    uint32_t seed{1};                      //!< --seed

    /**
     * Declare them.
     * @param options the parser.
     * @param withSeed whether the program has --seed.
     */
    void Declare(ProgramOptions& options, bool withSeed)
    {
        options.AddUnsigned("senders", "senders", senders, 1, 1000);
        options.AddUnsigned("bytes", "bytes per sender", bytes, 1, uint64_t(1) << 40);
        options.AddUnsigned("mtu", "RDMA MTU", mtu, 256, 4096);
        options.AddUnsigned("iterations", "iterations", iterations, 1, 1000);
        options.AddRate("linkRate", "link rate", linkRate);
        options.AddTime("linkDelay", "link delay", linkDelay, Time(0), Seconds(1));
        options.AddTime("sampleInterval",
                        "queue sampling",
                        sampleInterval,
                        NanoSeconds(1),
                        Seconds(1));
        options.AddSize("bufferSize", "switch buffer", bufferSize, 1, 4294967295ULL);
        options.AddDouble("pmax", "ECN Pmax", pmax, 0, 1);
        options.AddBool("pfc", "PFC", pfc);
        options.AddChoice("cc", "congestion control", cc, {"none", "dcqcn"});
        options.AddString("pcap", "pcap prefix", pcap);
        if (withSeed)
        {
            options.AddUnsigned("seed", "run number", seed, 1, 4294967295U);
        }
    }
};

/**
 * Parse a command line of one argument.
 * @param arg the argument.
 * @param withSeed whether the program has --seed.
 * @param[out] options the values read.
 * @return the problem.
 */
std::string
ParseOne(const std::string& arg, bool withSeed, Options& options)
{
    AttributeDefaults defaults;
    ProgramOptions parser("prog", "A test.", &defaults);
    options.Declare(parser, withSeed);
    std::string program = "prog";
    std::string argument = arg;
    char* argv[] = {program.data(), argument.data()};
    std::string problem = parser.Parse(2, argv);
    Config::Reset();
    return problem;
}

/**
 * @ingroup llm-fabric-tests
 * Bad values are refused, each with one line naming the option.
 */
class ProgramOptionsRefusalsTestCase : public TestCase
{
  public:
    ProgramOptionsRefusalsTestCase()
        : TestCase("Every bad option value is one line naming the option")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"--bytes=1e6", "--bytes: '1e6': not a whole number"},
            {"--bytes=-1", "--bytes: '-1': not a whole number"},
            {"--bytes=0", "--bytes: '0': out of range"},
            {"--senders=8abc", "--senders: '8abc': not a whole number"},
            {"--senders=1001", "--senders: '1001': out of range"},
            {"--mtu=1000.5", "--mtu: '1000.5': not a whole number"},
            {"--iterations=2.5", "--iterations: '2.5': not a whole number"},
            {"--iterations=-1", "--iterations: '-1': not a whole number"},
            {"--iterations=99999999999999999999999",
             "--iterations: '99999999999999999999999': too large"},
            {"--linkRate=100", "--linkRate: '100': not a rate"},
            {"--linkRate=-5Gbps", "--linkRate: '-5Gbps': not a rate"},
            {"--linkRate=100Gbpsx", "--linkRate: '100Gbpsx': not a rate"},
            {"--linkDelay=-1us", "--linkDelay: '-1us': out of range"},
            {"--linkDelay=abc", "--linkDelay: 'abc': not a time"},
            {"--linkDelay=1", "--linkDelay: '1': not a time"},
            {"--sampleInterval=abc", "--sampleInterval: 'abc': not a time"},
            {"--sampleInterval=0us", "--sampleInterval: '0us': out of range"},
            {"--bufferSize=5GB", "--bufferSize: '5GB': above 4294967295 bytes"},
            {"--bufferSize=12", "--bufferSize: '12': not a size"},
            {"--pmax=1.5", "--pmax: '1.5': out of range"},
            {"--pmax=0x1p-3", "--pmax: '0x1p-3': not a decimal number"},
            {"--pfc=2", "--pfc: '2': expected 1, 0, true or false"},
            {"--cc=bbr", "--cc: 'bbr': expected one of none, dcqcn"},
            {"--mtu", "--mtu: needs a value (--mtu=VALUE)"},
            {"--bogus=1", "--bogus: unknown option (--help lists them)"},
            {"positional", "'positional': not an option"},
            {"--PrintAttributes=bogus", "--PrintAttributes: 'bogus': not a TypeId name"},
            {"--PrintGroup=bogus", "--PrintGroup: 'bogus': not a group"},
            {"--ns3::Dcqcn::G=abc", "--ns3::Dcqcn::G: 'abc': not a number"},
            {"--ns3::RdmaQueuePair::Mtu=100",
             "--ns3::RdmaQueuePair::Mtu: '100': out of range from 256 to 4096"},
            {"--ns3::RdmaQueuePair::Mtu=1000.5",
             "--ns3::RdmaQueuePair::Mtu: '1000.5': not a whole number"},
            {"--ns3::SwitchMmu::Buffer=5GB",
             "--ns3::SwitchMmu::Buffer: '5GB': above 4294967295 bytes (the largest"},
            {"--ns3::SwitchMmu::Buffer=4294967296B",
             "--ns3::SwitchMmu::Buffer: '4294967296B': above 4294967295 bytes"},
            {"--ns3::RoceNetDevice::NoSuch=1", "--ns3::RoceNetDevice::NoSuch: no attribute"},
            {"--RngRun=3", "--RngRun: not used by this program: its run number is --seed"},
            {"--RngSeed=3", "--RngSeed: not used by this program"},
            {"--cc=two\nlines\x1b[31m", "--cc: 'two\\nlines\\x1b[31m': expected one of"},
        };
        for (const auto& [arg, expected] : cases)
        {
            Options options;
            std::string problem = ParseOne(arg, true, options);
            NS_TEST_EXPECT_MSG_EQ(problem.rfind(expected, 0), 0, arg << " gives: " << problem);
            NS_TEST_EXPECT_MSG_EQ(problem.find('\n'), std::string::npos, "one line: " << problem);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(problem.size(), 400, "short: " << problem);
            // A refused value leaves the variable alone.
            Options fresh;
            NS_TEST_EXPECT_MSG_EQ(options.bytes, fresh.bytes, arg);
            NS_TEST_EXPECT_MSG_EQ(options.iterations, fresh.iterations, arg);
        }
        // Without a --seed of its own, a program takes ns-3's --RngRun, strictly.
        Options options;
        NS_TEST_EXPECT_MSG_EQ(
            ParseOne("--RngRun=abc", false, options).rfind("--RngRun: 'abc': ", 0),
            0,
            "strict");
        {
            ProgramOptions parser("prog", "A test.");
            options.Declare(parser, false);
            std::string program = "prog";
            std::string argument = "--RngRun=7";
            char* argv[] = {program.data(), argument.data()};
            NS_TEST_EXPECT_MSG_EQ(parser.Parse(2, argv), "", "accepted");
            NS_TEST_EXPECT_MSG_EQ(RngSeedManager::GetRun(), 7, "and honoured");
        }
        Config::Reset();
        RngSeedManager::SetRun(1);
    }
};

/**
 * @ingroup llm-fabric-tests
 * The programs run on this module's WindowedCalendarScheduler and LeanSimulatorImpl unless
 * --SchedulerType / --SimulatorImplementationType or NS_GLOBAL_VALUE names another, which is
 * never replaced.
 */
class ProgramOptionsSchedulerTestCase : public TestCase
{
  public:
    ProgramOptionsSchedulerTestCase()
        : TestCase("the scheduler and simulator: the windowed calendar and the lean simulator by "
                   "default, the command line and NS_GLOBAL_VALUE win")
    {
    }

  private:
    /**
     * Parse a command line and read a global value.
     * @param name the global value.
     * @param args the arguments after the program's name.
     * @return its value, or the problem.
     */
    static std::string ValueAfter(const std::string& name, std::vector<std::string> args)
    {
        ProgramOptions parser("prog", "A test.");
        Options options;
        options.Declare(parser, true);
        std::vector<char*> argv;
        std::string program = "prog";
        argv.push_back(program.data());
        for (auto& arg : args)
        {
            argv.push_back(arg.data());
        }
        std::string problem = parser.Parse(static_cast<int>(argv.size()), argv.data());
        StringValue type;
        GlobalValue::GetValueByName(name, type);
        Config::Reset();
        return problem.empty() ? type.Get() : problem;
    }

    void DoRun() override
    {
        const std::string scheduler = "SchedulerType";
        const std::string simulator = "SimulatorImplementationType";
        const char* given = std::getenv("NS_GLOBAL_VALUE");
        std::string saved = given ? given : "";
        unsetenv("NS_GLOBAL_VALUE");
        Config::Reset();
        StringValue initialScheduler;
        GlobalValue::GetValueByName(scheduler, initialScheduler);
        StringValue initialSimulator;
        GlobalValue::GetValueByName(simulator, initialSimulator);
        NS_TEST_EXPECT_MSG_EQ(ValueAfter(scheduler, {}),
                              "ns3::WindowedCalendarScheduler",
                              "nothing given: the windowed calendar");
        NS_TEST_EXPECT_MSG_EQ(ValueAfter(simulator, {}),
                              "ns3::LeanSimulatorImpl",
                              "nothing given: the lean simulator");
        NS_TEST_EXPECT_MSG_EQ(ValueAfter(scheduler, {"--SchedulerType=ns3::MapScheduler"}),
                              "ns3::MapScheduler",
                              "the command line wins");
        NS_TEST_EXPECT_MSG_EQ(
            ValueAfter(simulator, {"--SimulatorImplementationType=ns3::DefaultSimulatorImpl"}),
            "ns3::DefaultSimulatorImpl",
            "the command line wins");
        NS_TEST_EXPECT_MSG_EQ(
            ValueAfter(simulator, {"--SchedulerType=ns3::MapScheduler"}),
            "ns3::LeanSimulatorImpl",
            "a scheduler given on the command line leaves the simulator's default");
        // NS_GLOBAL_VALUE is read when a global value is made; what it named is still bound, and
        // the default must not replace it.
        setenv("NS_GLOBAL_VALUE", "SchedulerType=ns3::CalendarScheduler", 1);
        GlobalValue::Bind(scheduler, StringValue("ns3::CalendarScheduler"));
        NS_TEST_EXPECT_MSG_EQ(ValueAfter(scheduler, {}),
                              "ns3::CalendarScheduler",
                              "the environment wins");
        setenv("NS_GLOBAL_VALUE", "SimulatorImplementationType=ns3::DefaultSimulatorImpl", 1);
        GlobalValue::Bind(simulator, StringValue("ns3::DefaultSimulatorImpl"));
        NS_TEST_EXPECT_MSG_EQ(ValueAfter(simulator, {}),
                              "ns3::DefaultSimulatorImpl",
                              "the environment wins");
        if (given)
        {
            setenv("NS_GLOBAL_VALUE", saved.c_str(), 1);
        }
        else
        {
            unsetenv("NS_GLOBAL_VALUE");
        }
        Config::Reset();
        StringValue type;
        GlobalValue::GetValueByName(scheduler, type);
        NS_TEST_EXPECT_MSG_EQ(type.Get(),
                              initialScheduler.Get(),
                              "the value before the test restored");
        GlobalValue::GetValueByName(simulator, type);
        NS_TEST_EXPECT_MSG_EQ(type.Get(),
                              initialSimulator.Get(),
                              "the value before the test restored");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Valid values are read exactly, and attribute defaults are set and recorded as given.
 */
class ProgramOptionsValuesTestCase : public TestCase
{
  public:
    ProgramOptionsValuesTestCase()
        : TestCase("Valid values are read exactly; attribute defaults are recorded as given")
    {
    }

  private:
    void DoRun() override
    {
        AttributeDefaults defaults;
        ProgramOptions parser("prog", "A test.", &defaults);
        Options options;
        options.Declare(parser, true);
        std::vector<std::string> args = {"prog",
                                         "--senders=8",
                                         "--bytes=1000000000000",
                                         "--linkRate=400Gbps",
                                         "--linkDelay=1.5us",
                                         "--bufferSize=1.5MiB",
                                         "--pmax=0.125",
                                         "--pfc",
                                         "--cc=none",
                                         "--pcap=out/p",
                                         "--ns3::Dcqcn::G=0.5",
                                         "--help"};
        std::vector<char*> argv;
        for (std::string& a : args)
        {
            argv.push_back(a.data());
        }
        options.pfc = false;
        NS_TEST_ASSERT_MSG_EQ(parser.Parse(static_cast<int>(argv.size()), argv.data()), "", "ok");
        NS_TEST_EXPECT_MSG_EQ(options.senders, 8, "senders");
        NS_TEST_EXPECT_MSG_EQ(options.bytes, 1000000000000ULL, "bytes above 32 bits");
        NS_TEST_EXPECT_MSG_EQ(options.linkRate.GetBitRate(), 400000000000ULL, "rate");
        NS_TEST_EXPECT_MSG_EQ(options.linkDelay, NanoSeconds(1500), "delay");
        NS_TEST_EXPECT_MSG_EQ(options.bufferSize, 1572864, "1.5 x 1,048,576 bytes");
        NS_TEST_EXPECT_MSG_EQ(options.pmax, 0.125, "pmax");
        NS_TEST_EXPECT_MSG_EQ(options.pfc, true, "a flag alone is true");
        NS_TEST_EXPECT_MSG_EQ(options.cc, "none", "choice");
        NS_TEST_EXPECT_MSG_EQ(options.pcap, "out/p", "text");
        NS_TEST_EXPECT_MSG_EQ(parser.IsGiven("senders"), true, "given");
        NS_TEST_EXPECT_MSG_EQ(parser.IsGiven("mtu"), false, "not given");
        NS_TEST_EXPECT_MSG_EQ(parser.WantsHelp(), true, "--help");
        NS_TEST_EXPECT_MSG_EQ(defaults.IsGiven("ns3::Dcqcn::G"), true, "attribute recorded");
        // A scenario's offer does not replace it.
        NS_TEST_EXPECT_MSG_EQ(defaults.Offer("ns3::Dcqcn::G", DoubleValue(0.25)), false, "wins");
        NS_TEST_EXPECT_MSG_NE(parser.GetUsage().find("--bufferSize: switch buffer"),
                              std::string::npos,
                              "usage lists the options");
        Config::Reset();
        // A pcap prefix needs its folder.
        NS_TEST_EXPECT_MSG_EQ(ProgramOptions::CheckPrefix("p"), "", "the current folder");
        NS_TEST_EXPECT_MSG_EQ(ProgramOptions::CheckPrefix("/nonexistent-llm-fabric/p"),
                              "the folder '/nonexistent-llm-fabric' does not exist",
                              "a missing folder");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Required options: an empty one is refused after every option was read, the first added
 * first, unless the command line asks for the usage text or an ns-3 listing.
 */
class ProgramOptionsRequiredTestCase : public TestCase
{
  public:
    ProgramOptionsRequiredTestCase()
        : TestCase("A required option left empty is refused, unless --help is asked for")
    {
    }

  private:
    void DoRun() override
    {
        // (command line, what Parse says, the corpus read)
        const std::vector<std::tuple<std::vector<std::string>, std::string, std::string>> cases = {
            {{}, "--corpus: a text file is required", ""},
            {{"--vocab=v"}, "--corpus: a text file is required", ""},
            {{"--corpus=c"}, "--vocab: a folder is required", "c"},
            {{"--corpus=", "--vocab=v"}, "--corpus: a text file is required", ""},
            {{"--vocab=v", "--mtu=x"}, "--mtu: 'x': not a whole number", ""},
            {{"--vocab=v", "--corpus=c"}, "", "c"},
            {{"--help"}, "", ""},
            {{"--PrintGroups"}, "", ""},
        };
        for (const auto& [args, expected, corpusRead] : cases)
        {
            std::string corpus;
            std::string vocab;
            uint32_t mtu = 4096;
            ProgramOptions parser("prog", "A test.");
            parser.AddRequired("corpus", "text file", corpus, "a text file is required");
            parser.AddRequired("vocab", "vocabulary folder", vocab, "a folder is required");
            parser.AddValue("mtu", "RDMA MTU", mtu);
            std::vector<std::string> words = {"prog"};
            words.insert(words.end(), args.begin(), args.end());
            std::vector<char*> argv;
            for (std::string& w : words)
            {
                argv.push_back(w.data());
            }
            std::string line;
            for (const std::string& a : args)
            {
                line += " " + a;
            }
            std::string problem = parser.Parse(static_cast<int>(argv.size()), argv.data());
            if (expected.empty())
            {
                NS_TEST_EXPECT_MSG_EQ(problem, "", "accepted:" << line);
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(problem.rfind(expected, 0), 0, line << " gives: " << problem);
            }
            NS_TEST_EXPECT_MSG_EQ(corpus, corpusRead, "corpus read:" << line);
        }
        Config::Reset();
    }
};

/**
 * @ingroup llm-fabric-tests
 * Attribute defaults that hold an object (a pointer or an object factory) or a list of objects
 * are read strictly: ns-3's reader aborted on a type it does not know, one without constructor,
 * or an unclosed "[" (found by the options fuzz target:
 * --ns3::SimpleNetDevice::ReceiveErrorModel=ceEvents=c aborted with "Requested constructor for
 * but it does not have one"). Each command line is read in a child process, so the old code
 * fails here instead of ending the runner.
 */
class ProgramOptionsObjectAttributesTestCase : public TestCase
{
  public:
    ProgramOptionsObjectAttributesTestCase()
        : TestCase("Object-valued attribute defaults: unknown, abstract, unclosed, wrong type")
    {
    }

  private:
    /**
     * @param arg one argument.
     * @return ParseOne's problem, read in a child process.
     */
    static std::string Read(const std::string& arg)
    {
        return RunInChild(
            [&arg]() {
                Options options;
                return ParseOne(arg, false, options);
            },
            5);
    }

    void DoRun() override
    {
        const std::string model = "--ns3::SimpleNetDevice::ReceiveErrorModel=";
        const std::string shown = "--ns3::SimpleNetDevice::ReceiveErrorModel: ";

        struct Case
        {
            std::string value; //!< the attribute's text
            std::string says;  //!< a part of the refusal ("" for accepted)
        };

        const std::vector<Case> cases = {
            {"ceEvents=c", "(no TypeId 'ceEvents=c')"},
            {"ns3::NoSuchModel", "(no TypeId 'ns3::NoSuchModel')"},
            {"ns3::ErrorModel", "ns3::ErrorModel cannot be created (it has no constructor)"},
            {"ns3::Node", "ns3::Node is not a ns3::ErrorModel"},
            {"ns3::RateErrorModel[", "not an object such as"},
            {"ns3::RateErrorModel[ErrorRate=0.5", "not an object such as"},
            {"ns3::RateErrorModel[Bogus=1]", "'Bogus=1' is not Name=value of ns3::RateErrorModel"},
            {"ns3::RateErrorModel[ErrorRate=abc]", "ErrorRate: not a number"},
            {"ns3::RateErrorModel[ErrorRate=0.5]", ""},
            {"ns3::RateErrorModel", ""},
        };
        for (const Case& c : cases)
        {
            std::string problem = Read(model + c.value);
            if (c.says.empty())
            {
                NS_TEST_EXPECT_MSG_EQ(problem, "", c.value);
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(problem.rfind(shown, 0), 0, c.value << ": " << problem);
            NS_TEST_EXPECT_MSG_NE(problem.find(c.says),
                                  std::string::npos,
                                  c.value << ": " << problem);
        }
        // Other types than ns-3's reader is trusted with are refused or checked first (it
        // aborted on a priomap of fewer than 16 numbers, found by the fuzz target next).
        NS_TEST_EXPECT_MSG_EQ(Read("--ns3::PrioQueueDisc::Priomap=1"),
                              "--ns3::PrioQueueDisc::Priomap: '1': cannot be given as text (a "
                              "PriomapValue) (ns3::PrioQueueDisc::Priomap)",
                              "a priomap");
        NS_TEST_EXPECT_MSG_EQ(Read("--ns3::RealtimeSimulatorImpl::SynchronizationMode=Bogus"),
                              "--ns3::RealtimeSimulatorImpl::SynchronizationMode: 'Bogus': not one "
                              "of BestEffort|HardLimit (ns3::RealtimeSimulatorImpl::"
                              "SynchronizationMode)",
                              "an enum");
        NS_TEST_EXPECT_MSG_EQ(Read("--ns3::RealtimeSimulatorImpl::SynchronizationMode=HardLimit"),
                              "",
                              "an enum's name");
        NS_TEST_EXPECT_MSG_NE(Read("--ns3::RoceConstantRateSource::Local=10.0.0"),
                              "",
                              "three octets");
        NS_TEST_EXPECT_MSG_EQ(Read("--ns3::RoceConstantRateSource::Local=10.0.0.1"), "", "IPv4");
        NS_TEST_EXPECT_MSG_NE(Read("--ns3::RoceConstantRateSource::RemoteMac=00:00"),
                              "",
                              "two octets");
        NS_TEST_EXPECT_MSG_EQ(Read("--ns3::RoceConstantRateSource::RemoteMac=00:00:00:00:00:0a"),
                              "",
                              "a MAC address");
        // ns-3 reads a string attribute as one word and aborted on a blank in it (found by the
        // fuzz target next, a tab in --ns3::FqCoDelQueueDisc::Target).
        for (const std::string text : {"a b", "\tx", "x\n"})
        {
            NS_TEST_EXPECT_MSG_NE(Read("--ns3::GpuSpec::Name=" + text)
                                      .find("a text without spaces, tabs or line breaks"),
                                  std::string::npos,
                                  text);
        }
        NS_TEST_EXPECT_MSG_EQ(Read("--ns3::GpuSpec::Name=my-gpu"), "", "one word");
        // A list of objects has no text form (ns-3's reader aborts on any).
        NS_TEST_EXPECT_MSG_EQ(Read("--ns3::Node::DeviceList=x"),
                              "--ns3::Node::DeviceList: 'x': a list of objects cannot be given as "
                              "text (ns3::Node::DeviceList)",
                              "an object vector");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The program options test suite.
 */
class ProgramOptionsTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    ProgramOptionsTestSuite()
        : TestSuite("llm-fabric-program-options", Type::UNIT)
    {
        AddTestCase(new ProgramOptionsRefusalsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ProgramOptionsValuesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ProgramOptionsSchedulerTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ProgramOptionsRequiredTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ProgramOptionsObjectAttributesTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static ProgramOptionsTestSuite g_programOptionsTestSuite;

} // namespace tests
} // namespace llmfabric
