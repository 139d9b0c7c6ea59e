/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// @return the contents of a file of the source tree, or "" if absent.
std::string
ReadSource(const std::string& relative)
{
    std::ifstream in(std::string(LLM_FABRIC_SOURCE_DIR) + "/" + relative);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/**
 * The words of a CMake list: what stands between "COMMAND(NAME" and the closing parenthesis.
 * @param cmake the CMake text.
 * @param name the variable.
 * @param command the command that takes the list: set, or foreach (the loop's items).
 * @return the words, sorted.
 */
std::set<std::string>
CmakeList(const std::string& cmake, const std::string& name, const std::string& command = "set")
{
    std::set<std::string> words;
    const std::string opening = command + "(" + name + "\n";
    auto start = cmake.find(opening);
    if (start == std::string::npos)
    {
        return words;
    }
    auto end = cmake.find(')', start);
    std::istringstream in(cmake.substr(start + opening.size(), end - start - opening.size()));
    for (std::string w; in >> w;)
    {
        words.insert(w);
    }
    return words;
}

/**
 * The quoted strings of a Python list: what stands between "ANCHOR = [" (or "ANCHOR([") and "]".
 * @param python the Python text.
 * @param anchor text just before the opening bracket.
 * @return the strings, sorted.
 */
std::set<std::string>
PythonList(const std::string& python, const std::string& anchor)
{
    std::set<std::string> words;
    auto start = python.find(anchor);
    if (start == std::string::npos)
    {
        return words;
    }
    start = python.find('[', start);
    auto end = python.find(']', start);
    std::string body = python.substr(start, end - start);
    for (auto q = body.find('\''); q != std::string::npos; q = body.find('\'', q + 1))
    {
        auto close = body.find('\'', q + 1);
        words.insert(body.substr(q + 1, close - q - 1));
        q = close;
    }
    return words;
}

/// @return the files below a folder of the source tree whose names end with suffix.
void
FindFiles(const std::string& relative, const std::string& suffix, std::set<std::string>& out)
{
    DIR* dir = opendir((std::string(LLM_FABRIC_SOURCE_DIR) + "/" + relative).c_str());
    if (dir == nullptr)
    {
        return;
    }
    while (dirent* e = readdir(dir))
    {
        std::string name = e->d_name;
        if (name == "." || name == "..")
        {
            continue;
        }
        std::string path = relative + "/" + name;
        if (e->d_type == DT_DIR)
        {
            FindFiles(path, suffix, out);
        }
        else if (name.size() > suffix.size() &&
                 name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            out.insert(path);
        }
    }
    closedir(dir);
}

/// @return the elements of a joined by ", ".
std::string
Join(const std::set<std::string>& a)
{
    std::string s;
    for (const auto& w : a)
    {
        s += (s.empty() ? "" : ", ") + w;
    }
    return s.empty() ? "(none)" : s;
}

/// @return the elements of a that are not in b.
std::set<std::string>
Minus(const std::set<std::string>& a, const std::set<std::string>& b)
{
    std::set<std::string> d;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(d, d.begin()));
    return d;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The waf files in wscript-compat/ list exactly the sources, headers, test sources and examples
 * that CMakeLists.txt builds, and CMake builds every source file of the tree.
 */
class BuildFilesTestCase : public TestCase
{
  public:
    BuildFilesTestCase()
        : TestCase("wscript-compat lists what CMake builds, and CMake builds every source")
    {
    }

  private:
    void DoRun() override
    {
        std::string cmake = ReadSource("CMakeLists.txt");
        std::string wscript = ReadSource("wscript-compat/wscript");
        NS_TEST_ASSERT_MSG_NE(cmake.empty(), true, "CMakeLists.txt is readable");
        NS_TEST_ASSERT_MSG_NE(wscript.empty(), true, "wscript-compat/wscript is readable");

        // CMakeLists.txt names each source and header pair once, without its ending, and each
        // test suite once by the NAME of test/NAME-test-suite.cc; it makes the lists so.
        for (const std::string derivation :
             {"set(llm_fabric_sources ${llm_fabric_pairs})\n"
              "list(TRANSFORM llm_fabric_sources APPEND .cc)\n"
              "list(APPEND llm_fabric_sources ${llm_fabric_lone_sources})\n",
              "set(llm_fabric_headers ${llm_fabric_pairs})\n"
              "list(TRANSFORM llm_fabric_headers APPEND .h)\n"
              "list(APPEND llm_fabric_headers ${llm_fabric_lone_headers})\n",
              "list(TRANSFORM llm_fabric_test_suites REPLACE \"^(.+)$\" "
              "\"test/\\\\1-test-suite.cc\"\n"
              "     OUTPUT_VARIABLE llm_fabric_test_sources\n)\n"
              "list(APPEND llm_fabric_test_sources ${llm_fabric_test_shared})\n"})
        {
            NS_TEST_ASSERT_MSG_NE(cmake.find(derivation),
                                  std::string::npos,
                                  "CMakeLists.txt makes a list so: " << derivation);
        }
        auto sources = CmakeList(cmake, "llm_fabric_lone_sources");
        auto headers = CmakeList(cmake, "llm_fabric_lone_headers");
        for (const auto& pair : CmakeList(cmake, "llm_fabric_pairs"))
        {
            sources.insert(pair + ".cc");
            headers.insert(pair + ".h");
        }
        auto tests = CmakeList(cmake, "llm_fabric_test_shared");
        for (const auto& suite : CmakeList(cmake, "llm_fabric_test_suites"))
        {
            tests.insert("test/" + suite + "-test-suite.cc");
        }
        NS_TEST_ASSERT_MSG_GT(sources.size(), 0, "CMake lists sources");
        NS_TEST_ASSERT_MSG_GT(headers.size(), 0, "CMake lists headers");
        NS_TEST_ASSERT_MSG_GT(tests.size(), 0, "CMake lists test sources");

        auto wafSources = PythonList(wscript, "module.source =");
        auto wafHeaders = PythonList(wscript, "headers.source =");
        auto wafTests = PythonList(wscript, "module_test.source =");
        NS_TEST_EXPECT_MSG_EQ(Join(Minus(sources, wafSources)) + " / " +
                                  Join(Minus(wafSources, sources)),
                              "(none) / (none)",
                              "sources only in CMake / only in waf");
        NS_TEST_EXPECT_MSG_EQ(Join(Minus(headers, wafHeaders)) + " / " +
                                  Join(Minus(wafHeaders, headers)),
                              "(none) / (none)",
                              "headers only in CMake / only in waf");
        NS_TEST_EXPECT_MSG_EQ(Join(Minus(tests, wafTests)) + " / " + Join(Minus(wafTests, tests)),
                              "(none) / (none)",
                              "test sources only in CMake / only in waf");

        // Every model and helper file is built (no dead files), every test file is in a suite
        // list (the standalone runner's main is the one exception: an ns-3 tree has its own).
        std::set<std::string> onDiskSources;
        std::set<std::string> onDiskHeaders;
        std::set<std::string> onDiskTests;
        for (const std::string folder : {"model", "helper"})
        {
            FindFiles(folder, ".cc", onDiskSources);
            FindFiles(folder, ".h", onDiskHeaders);
        }
        FindFiles("test", ".cc", onDiskTests);
        onDiskTests.erase("test/llm-fabric-test-runner.cc");
        // The libFuzzer main is built only by the LLM_FABRIC_FUZZ build (./ns3 fuzz), which
        // names it in CMakeLists.txt.
        onDiskTests.erase("test/fuzz/fuzz-main.cc");
        NS_TEST_EXPECT_MSG_NE(cmake.find("test/fuzz/fuzz-main.cc"),
                              std::string::npos,
                              "the fuzz build names its main");
        NS_TEST_EXPECT_MSG_EQ(Join(Minus(onDiskSources, sources)),
                              "(none)",
                              "model/helper sources that CMake does not build");
        NS_TEST_EXPECT_MSG_EQ(Join(Minus(onDiskHeaders, headers)),
                              "(none)",
                              "model/helper headers that CMake does not install");
        NS_TEST_EXPECT_MSG_EQ(Join(Minus(onDiskTests, tests)),
                              "(none)",
                              "test sources that CMake does not build");

        // Examples: CMake builds each program of the foreach list from the source of its name;
        // each has a create_ns3_program of the same name and source in waf, and each example
        // source is built.
        std::string cmakeExamples = ReadSource("examples/CMakeLists.txt");
        std::string wafExamples = ReadSource("wscript-compat/examples/wscript");
        NS_TEST_ASSERT_MSG_NE(
            cmakeExamples.find("llm_fabric_example(NAME ${program} SOURCE_FILES ${program}.cc)"),
            std::string::npos,
            "CMake builds each example from the source of its name");
        std::set<std::string> cmakePrograms;
        for (const std::string& program : CmakeList(cmakeExamples, "program", "foreach"))
        {
            cmakePrograms.insert(program + ":" + program + ".cc");
        }
        std::set<std::string> wafPrograms;
        for (auto p = wafExamples.find("create_ns3_program('"); p != std::string::npos;
             p = wafExamples.find("create_ns3_program('", p + 1))
        {
            auto b = p + 20;
            std::string program = wafExamples.substr(b, wafExamples.find('\'', b) - b);
            auto s = wafExamples.find(".source = '", p);
            auto sb = s + 11;
            std::string file = wafExamples.substr(sb, wafExamples.find('\'', sb) - sb);
            wafPrograms.insert(program + ":" + file);
        }
        NS_TEST_ASSERT_MSG_GT(cmakePrograms.size(), 0, "CMake lists examples");
        NS_TEST_EXPECT_MSG_EQ(Join(Minus(cmakePrograms, wafPrograms)) + " / " +
                                  Join(Minus(wafPrograms, cmakePrograms)),
                              "(none) / (none)",
                              "examples only in CMake / only in waf");
        std::set<std::string> exampleFiles;
        FindFiles("examples", ".cc", exampleFiles);
        std::set<std::string> builtExamples;
        for (const auto& p : cmakePrograms)
        {
            builtExamples.insert("examples/" + p.substr(p.find(':') + 1));
        }
        NS_TEST_EXPECT_MSG_EQ(Join(Minus(exampleFiles, builtExamples)),
                              "(none)",
                              "example sources that CMake does not build");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Checks of the build description itself.
 */
class BuildFilesTestSuite : public TestSuite
{
  public:
    BuildFilesTestSuite()
        : TestSuite("llm-fabric-build-files", Type::UNIT)
    {
        AddTestCase(new BuildFilesTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static BuildFilesTestSuite g_buildFilesTestSuite;

} // namespace tests
} // namespace llmfabric
