/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/exact-time.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of ExactTime's arithmetic that does not need a simulator.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * ExactTime::Round gives what the C library's std::llround gives: the nearest integer, halves
 * away from zero.
 */
class ExactTimeRoundTestCase : public TestCase
{
  public:
    ExactTimeRoundTestCase()
        : TestCase("Round is std::llround: nearest integer, halfway cases away from zero")
    {
    }

  private:
    void DoRun() override
    {
        // Halves go away from zero (C11 7.12.9.7), not to even.
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(2.5), 3, "2.5");
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(3.5), 4, "3.5");
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(-2.5), -3, "-2.5");
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(0.0), 0, "0");
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(-0.4), 0, "-0.4");
        // The largest double below 0.5: adding 0.5 and truncating would give 1.
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(0.49999999999999994), 0, "just below a half");
        // 2^52 - 0.5, the last half a double holds: away from zero is 2^52.
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(4503599627370495.5), 4503599627370496, "2^52-0.5");
        // From 2^53 on every double is an integer.
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(9007199254740993.0), 9007199254740992, "2^53+1");
        NS_TEST_EXPECT_MSG_EQ(ExactTime::Round(1e18), 1000000000000000000, "1e18");

        // What the module rounds: frame times in femtoseconds, bytes * 8e15 / rate.
        uint64_t differ = 0;
        for (double rate : {1e9, 10e9, 25e9, 40e9, 100e9, 200e9, 400e9, 800e9, 3e9 + 7})
        {
            for (uint64_t bytes = 1; bytes <= 20000; ++bytes)
            {
                double fs = static_cast<double>(bytes) * 8e15 / rate;
                differ += ExactTime::Round(fs) != std::llround(fs) ? 1 : 0;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(differ, 0, "frame times as std::llround rounds them");

        // Any magnitude, either sign, and values on and next to halves.
        std::mt19937_64 rng(1);
        std::uniform_real_distribution<double> exponent(-4.0, 62.0);
        differ = 0;
        for (int k = 0; k < 1000000; ++k)
        {
            double x = std::pow(2.0, exponent(rng)) * ((k & 1) ? -1.0 : 1.0);
            if (k % 3 == 0)
            {
                x = std::trunc(x) + 0.5; // a half, where representable
            }
            else if (k % 3 == 1)
            {
                x = std::nextafter(std::trunc(x) + 0.5, 0.0);
            }
            differ += ExactTime::Round(x) != std::llround(x) ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(differ, 0, "a million values as std::llround rounds them");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The ExactTime test suite.
 */
class ExactTimeTestSuite : public TestSuite
{
  public:
    ExactTimeTestSuite()
        : TestSuite("llm-fabric-exact-time", Type::UNIT)
    {
        AddTestCase(new ExactTimeRoundTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The static instance that registers the suite.
static ExactTimeTestSuite g_exactTimeTestSuite;

} // namespace tests
} // namespace llmfabric
