/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/llm-fabric-compat.h"
#include "ns3/queue-size.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/test.h"
#include "ns3/value-parser.h"

#include <cstdint>
#include <limits>
#include <string>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of ValueParser's size reader: whole strings only, exact bytes, and sizes above a stated
 * maximum refused by name instead of wrapping (ns3::QueueSize keeps 32 bits: "5GB" given to its
 * own parser becomes 705,032,704 bytes, 5e9 mod 2^32).
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * ParseSize reads the units of ns3::QueueSize plus GB and GiB exactly, and refuses the rest.
 */
class ParseSizeTestCase : public TestCase
{
  public:
    ParseSizeTestCase()
        : TestCase("Sizes: exact bytes, units required, no wrap above the maximum")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t max32 = std::numeric_limits<uint32_t>::max(); // 4,294,967,295

        struct Case
        {
            const char* text; //!< the input
            uint64_t bytes;   //!< its value (when accepted)
            const char* why;  //!< the start of the refusal ("" when accepted)
        };

        // Values by hand: k, M, G are powers of 1000; Ki, Mi, Gi of 1024.
        const Case cases[] = {
            {"300KB", 300000, ""},
            {"300kB", 300000, ""},
            {"1.5KB", 1500, ""},        // 1.5 x 1000
            {"2.5MiB", 2621440, ""},    // 2.5 x 1,048,576
            {"1GB", 1000000000, ""},    // fits in 32 bits
            {"3GB", 3000000000, ""},    // fits too (ns-3's QueueSize parser has no GB)
            {"4294967295B", max32, ""}, // the largest QueueSize
            {"4294967296B", 0, "above 4294967295 bytes"},
            {"4GiB", 0, "above 4294967295 bytes"}, // 2^32
            {"5GB", 0, "above 4294967295 bytes"},
            {"99999999999999999999999B", 0, "above"},       // does not fit 64 bits either
            {"1.0005KB", 0, "not a whole number of bytes"}, // 1000.5 bytes
            {"0.5B", 0, "not a whole number of bytes"},
            {"12", 0, "not a size"},     // no unit
            {"1e6B", 0, "not a size"},   // no exponent
            {"-1B", 0, "not a size"},    // no sign
            {"12MBx", 0, "not a size"},  // trailing characters
            {" 12MB", 0, "not a size"},  // leading space
            {"12 MB", 0, "not a size"},  // inner space
            {"KB", 0, "not a size"},     // no number
            {"1.2.3KB", 0, "not a size"} // two points
        };
        for (const Case& c : cases)
        {
            uint64_t bytes = 12345;
            std::string problem = ValueParser::ParseSize(c.text, max32, bytes);
            if (std::string(c.why).empty())
            {
                NS_TEST_EXPECT_MSG_EQ(problem, "", c.text);
                NS_TEST_EXPECT_MSG_EQ(bytes, c.bytes, c.text);
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(problem.rfind(c.why, 0), 0, c.text << ": " << problem);
                NS_TEST_EXPECT_MSG_EQ(bytes, 12345, c.text << " leaves the value alone");
            }
        }
        // A program's --bufferSize goes through the topology helper: 5 GB is refused by name.
        RoceTopologyHelper topo;
        std::string problem = topo.SetMmuBufferAndEcn("5GB", "400KB", "1600KB", 0.2, true);
        NS_TEST_EXPECT_MSG_EQ(problem,
                              "Buffer: '5GB': above 4294967295 bytes (the largest ns3::QueueSize)",
                              "the buffer is named");
        problem = topo.SetMmuBufferAndEcn("32MB", "4294967296B", "1600KB", 0.2, true);
        NS_TEST_EXPECT_MSG_EQ(problem.rfind("Kmin: ", 0), 0, "Kmin is named: " << problem);
    }
};

/**
 * @ingroup llm-fabric-tests
 * The value parser test suite.
 */
class ValueParserTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    ValueParserTestSuite()
        : TestSuite("llm-fabric-value-parser", Type::UNIT)
    {
        AddTestCase(new ParseSizeTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static ValueParserTestSuite g_valueParserTestSuite;

} // namespace tests
} // namespace llmfabric
