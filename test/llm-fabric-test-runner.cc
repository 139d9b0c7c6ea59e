/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric-tests
 * Test runner of the standalone build (`./ns3 test`). Debian ships no ns-3 test-runner, so this
 * program links every llm-fabric suite with ns-3's TestRunner. It runs each suite in a child
 * process of its own (so an abort in one suite is reported as that suite's failure, not as the
 * end of the run), reads the child's XML report, prints PASS/FAIL per suite with the failing
 * cases and their details, and ends with the line "N passed, N failed, N skipped" counting test
 * cases. Exit status: 0 if every case passed or was skipped, 1 otherwise.
 *
 * Usage: llm-fabric-test-runner [--suite=NAME] [--verbose] [--list] [--fullness=QUICK|...]
 */

#include "llm-fabric-test-util.h"

#include "ns3/test.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace
{

/// One failed assertion, as the XML report gives it.
struct Failure
{
    std::string condition; //!< the asserted condition
    std::string actual;    //!< actual value
    std::string limit;     //!< expected value or limit
    std::string message;   //!< the assertion's message
    std::string file;      //!< source file
    std::string line;      //!< source line
};

/// One test case (or suite) from the XML report.
struct TestResult
{
    std::string name;              //!< name of the case or suite
    bool passed = false;           //!< PASS in the report
    double seconds = 0;            //!< wall time
    std::vector<Failure> failures; //!< failed assertions of this level
    std::vector<TestResult> cases; //!< children (cases of a suite)
};

/// @return the text between <tag> and </tag> on this line, with XML escapes undone.
std::string
TagText(const std::string& line, const std::string& tag)
{
    std::string open = "<" + tag + ">";
    std::string close = "</" + tag + ">";
    auto b = line.find(open);
    auto e = line.find(close);
    if (b == std::string::npos || e == std::string::npos || e < b)
    {
        return "";
    }
    std::string text = line.substr(b + open.size(), e - b - open.size());
    const std::vector<std::pair<std::string, std::string>> escapes = {{"&lt;", "<"},
                                                                      {"&gt;", ">"},
                                                                      {"&quot;", "\""},
                                                                      {"&apos;", "'"},
                                                                      {"&#39;", "'"},
                                                                      {"&amp;", "&"}};
    for (const auto& [from, to] : escapes)
    {
        for (auto pos = text.find(from); pos != std::string::npos;
             pos = text.find(from, pos + to.size()))
        {
            text.replace(pos, from.size(), to);
        }
    }
    return text;
}

/**
 * Parse the XML report ns-3's TestRunner writes (nested <Test> elements, one tag a line).
 * @param path the report file.
 * @return the top-level tests (suites).
 */
std::vector<TestResult>
ParseReport(const std::string& path)
{
    std::ifstream in(path);
    std::vector<TestResult> roots;
    std::vector<TestResult> stack;
    Failure failure;
    std::string line;
    while (std::getline(in, line))
    {
        if (line.find("</Test>") != std::string::npos)
        {
            if (stack.empty())
            {
                continue;
            }
            TestResult done = stack.back();
            stack.pop_back();
            (stack.empty() ? roots : stack.back().cases).push_back(done);
        }
        else if (line.find("<Test>") != std::string::npos)
        {
            stack.emplace_back();
        }
        else if (stack.empty())
        {
            continue;
        }
        else if (line.find("<Name>") != std::string::npos)
        {
            stack.back().name = TagText(line, "Name");
        }
        else if (line.find("<Result>") != std::string::npos)
        {
            stack.back().passed = TagText(line, "Result") == "PASS";
        }
        else if (auto p = line.find("<Time real=\""); p != std::string::npos)
        {
            stack.back().seconds = std::atof(line.c_str() + p + 12);
        }
        else if (line.find("<FailureDetails>") != std::string::npos)
        {
            failure = Failure();
        }
        else if (line.find("</FailureDetails>") != std::string::npos)
        {
            stack.back().failures.push_back(failure);
        }
        else if (line.find("<Condition>") != std::string::npos)
        {
            failure.condition = TagText(line, "Condition");
        }
        else if (line.find("<Actual>") != std::string::npos)
        {
            failure.actual = TagText(line, "Actual");
        }
        else if (line.find("<Limit>") != std::string::npos)
        {
            failure.limit = TagText(line, "Limit");
        }
        else if (line.find("<Message>") != std::string::npos)
        {
            failure.message = TagText(line, "Message");
        }
        else if (line.find("<File>") != std::string::npos)
        {
            failure.file = TagText(line, "File");
        }
        else if (line.find("<Line>") != std::string::npos)
        {
            failure.line = TagText(line, "Line");
        }
    }
    return roots;
}

/**
 * Run this program again with the given arguments, its standard output and error going to a file.
 * @param self path of this program.
 * @param args arguments after argv[0].
 * @param logPath where the child's output goes.
 * @return the wait status.
 */
int
RunChild(const std::string& self, const std::vector<std::string>& args, const std::string& logPath)
{
    pid_t pid = fork();
    if (pid < 0)
    {
        std::cerr << "llm-fabric-test-runner: fork failed: " << std::strerror(errno) << std::endl;
        std::exit(1);
    }
    if (pid == 0)
    {
        int fd = open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0)
        {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(self.c_str()));
        for (const auto& a : args)
        {
            argv.push_back(const_cast<char*>(a.c_str()));
        }
        argv.push_back(nullptr);
        execv(self.c_str(), argv.data());
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    return status;
}

/// @return the contents of a file.
std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// @return the path of this executable.
std::string
SelfPath(const char* argv0)
{
    std::vector<char> buf(4096);
    ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    return n > 0 ? std::string(buf.data(), n) : std::string(argv0);
}

/// Print a failed case with its failure details.
void
PrintFailures(std::ostream& os, const TestResult& test, const std::string& indent)
{
    for (const auto& f : test.failures)
    {
        os << indent << f.file << ":" << f.line << ": " << f.message << std::endl
           << indent << "  condition: " << f.condition << "; actual: " << f.actual
           << "; limit: " << f.limit << std::endl;
    }
}

} // namespace

/**
 * Child mode: run ns-3's TestRunner on what the parent asked, then record the skipped cases.
 * @param argc argument count.
 * @param argv arguments: the program, "--child", the file for the skipped cases, then
 * TestRunner's arguments.
 * @return TestRunner's status.
 */
int
RunAsChild(int argc, char** argv)
{
    std::string skipFile = argv[2];
    std::vector<char*> childArgv;
    childArgv.push_back(argv[0]);
    for (int i = 3; i < argc; ++i)
    {
        childArgv.push_back(argv[i]);
    }
    int childArgc = static_cast<int>(childArgv.size());
    childArgv.push_back(nullptr); // TestRunner walks argv up to its null terminator
    int rc = ns3::TestRunner::Run(childArgc, childArgv.data());
    std::ofstream skips(skipFile);
    for (const auto& [name, reason] : llmfabric::tests::GetSkippedCases())
    {
        skips << name << "\t" << reason << "\n";
    }
    return rc;
}

/// Test case counts over the suites run.
struct Totals
{
    int passed{0};  //!< Passed cases.
    int failed{0};  //!< Failed cases (and suites that did not complete).
    int skipped{0}; //!< Skipped cases.
};

/**
 * Run one suite in a child process, print its result and add its cases to the totals.
 * @param self this program.
 * @param tmp the temporary folder.
 * @param name the suite.
 * @param fullness TestRunner's --fullness argument.
 * @param verbose print passed cases, and the output of failed suites.
 * @param[in,out] totals the counts.
 */
void
RunSuite(const std::string& self,
         const std::string& tmp,
         const std::string& name,
         const std::string& fullness,
         bool verbose,
         Totals& totals)
{
    std::string base = tmp + "/" + name;
    int status = RunChild(self,
                          {"--child",
                           base + ".skips",
                           "--suite=" + name,
                           "--xml",
                           "--out=" + base + ".xml",
                           fullness},
                          base + ".log");
    std::vector<TestResult> report = ParseReport(base + ".xml");
    std::vector<std::pair<std::string, std::string>> skips;
    {
        std::istringstream in(ReadFile(base + ".skips"));
        for (std::string line; std::getline(in, line);)
        {
            auto tab = line.find('\t');
            skips.emplace_back(line.substr(0, tab),
                               tab == std::string::npos ? "" : line.substr(tab + 1));
        }
    }
    bool crashed = !WIFEXITED(status);
    if (crashed || report.empty())
    {
        std::cout << "FAIL " << name << ": the suite did not complete ("
                  << (WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                          : "exit status " + std::to_string(WEXITSTATUS(status)))
                  << "); its output:" << std::endl
                  << ReadFile(base + ".log");
        ++totals.failed;
        return;
    }
    const TestResult& s = report.front();
    int suitePassed = 0;
    int suiteFailed = 0;
    int suiteSkipped = 0;
    std::ostringstream detail;
    for (const auto& c : s.cases)
    {
        std::string skipReason;
        bool isSkipped = false;
        for (const auto& [caseName, reason] : skips)
        {
            if (caseName == c.name)
            {
                isSkipped = true;
                skipReason = reason;
            }
        }
        if (!c.passed)
        {
            ++suiteFailed;
            detail << "    FAIL " << c.name << std::endl;
            PrintFailures(detail, c, "      ");
        }
        else if (isSkipped)
        {
            ++suiteSkipped;
            detail << "    SKIP " << c.name << ": " << skipReason << std::endl;
        }
        else
        {
            ++suitePassed;
            if (verbose)
            {
                detail << "    PASS " << c.name << " (" << c.seconds << " s)" << std::endl;
            }
        }
    }
    if (!s.passed && suiteFailed == 0)
    {
        // A failure recorded at suite level (in DoSetup/DoTeardown of the suite itself).
        ++suiteFailed;
        PrintFailures(detail, s, "    ");
    }
    totals.passed += suitePassed;
    totals.failed += suiteFailed;
    totals.skipped += suiteSkipped;
    std::cout << (suiteFailed ? "FAIL " : "PASS ") << name << " (" << s.cases.size() << " cases, "
              << s.seconds << " s)" << std::endl
              << detail.str();
    if (suiteFailed && verbose)
    {
        std::cout << "    output of the suite:" << std::endl << ReadFile(base + ".log");
    }
}

/**
 * Entry point.
 * @param argc argument count.
 * @param argv arguments.
 * @return 0 if every test case passed or was skipped.
 */
int
main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);

    if (!args.empty() && args[0] == "--child")
    {
        return RunAsChild(argc, argv);
    }

    std::string suite;
    std::string fullness = "--fullness=QUICK";
    bool verbose = false;
    for (const auto& a : args)
    {
        if (a.rfind("--suite=", 0) == 0)
        {
            suite = a.substr(8);
        }
        else if (a == "--verbose")
        {
            verbose = true;
        }
        else if (a.rfind("--fullness=", 0) == 0)
        {
            fullness = a;
        }
        else if (a == "--list")
        {
            std::string list = "--list";
            std::vector<char*> listArgv{argv[0], list.data(), nullptr};
            return ns3::TestRunner::Run(2, listArgv.data());
        }
        else if (a == "--help")
        {
            std::cout << "usage: llm-fabric-test-runner [--suite=NAME] [--verbose] [--list] "
                         "[--fullness=QUICK|EXTENSIVE|TAKES_FOREVER]"
                      << std::endl;
            return 0;
        }
        else
        {
            std::cerr << "llm-fabric-test-runner: unknown argument '" << a << "' (try --help)"
                      << std::endl;
            return 2;
        }
    }

    std::string self = SelfPath(argv[0]);
    char dirTemplate[] = "/tmp/llm-fabric-test-XXXXXX";
    if (mkdtemp(dirTemplate) == nullptr)
    {
        std::cerr << "llm-fabric-test-runner: cannot create a temporary folder" << std::endl;
        return 1;
    }
    std::string tmp = dirTemplate;

    // The suites to run: the one asked for, or every registered suite.
    std::vector<std::string> suites;
    {
        std::string listLog = tmp + "/list.txt";
        int status = RunChild(self, {"--child", tmp + "/list.skips", "--list"}, listLog);
        std::istringstream names(ReadFile(listLog));
        for (std::string name; std::getline(names, name);)
        {
            // Suite names have no blanks; anything else is a message, not a name.
            if (!name.empty() && name.find_first_of(" \t") == std::string::npos &&
                (suite.empty() || name == suite))
            {
                suites.push_back(name);
            }
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        {
            std::cerr << "llm-fabric-test-runner: could not list the test suites" << std::endl;
            return 1;
        }
    }
    if (suites.empty())
    {
        std::cerr << "llm-fabric-test-runner: no test suite named '" << suite
                  << "' (--list shows them)" << std::endl;
        return 1;
    }

    Totals totals;
    for (const auto& name : suites)
    {
        RunSuite(self, tmp, name, fullness, verbose, totals);
    }
    std::string cleanup = "rm -rf '" + tmp + "'";
    if (std::system(cleanup.c_str()) != 0)
    {
        std::cerr << "llm-fabric-test-runner: could not remove " << tmp << std::endl;
    }
    std::cout << totals.passed << " passed, " << totals.failed << " failed, " << totals.skipped
              << " skipped" << std::endl;
    return (totals.failed == 0 && totals.passed + totals.skipped > 0) ? 0 : 1;
}
