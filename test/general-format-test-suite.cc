/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/general-format.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * WriteGeneral6: doubles written as printf's "%g" writes them, checked against the C library's
 * printf and libstdc++'s std::to_chars (two independent exact implementations) and against
 * strings worked out by hand from the C standard's definition of "%g".
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param x a number.
 * @return it as WriteGeneral6 writes it.
 */
std::string
Fast(double x)
{
    char buffer[GENERAL6_MAX_CHARS];
    return std::string(buffer, WriteGeneral6(buffer, x));
}

/**
 * @param x a number.
 * @return it as std::to_chars's general format with precision 6 writes it.
 */
std::string
ByToChars(double x)
{
    char buffer[64];
    auto r = std::to_chars(buffer, buffer + sizeof(buffer), x, std::chars_format::general, 6);
    return std::string(buffer, r.ptr);
}

/**
 * @param x a finite number.
 * @return it as printf's "%g" writes it.
 */
std::string
ByPrintf(double x)
{
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%g", x);
    return buffer;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Strings worked out by hand from the C standard (7.21.6.1, the "g" conversion: precision 6;
 * with X the decimal exponent after rounding to 6 significant digits, fixed notation with 5 - X
 * decimals if -4 <= X < 6, else scientific with 5 decimals and an exponent of two digits at
 * least; trailing zeros removed, and the decimal point when no decimal is left).
 */
class GeneralFormatHandTestCase : public TestCase
{
  public:
    GeneralFormatHandTestCase()
        : TestCase("Hand-worked %g strings: notation switch at 1e-4 and 1e6, rounding, signs")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            double x;           //!< the number
            const char* expect; //!< its %g string
        };

        const std::vector<Case> cases = {
            {1, "1"},
            {100, "100"},
            {19.642, "19.642"},              // 5 significant digits: nothing to round
            {0.0001, "0.0001"},              // X = -4: still fixed
            {0.00001, "1e-05"},              // X = -5: scientific, two exponent digits
            {0.000123456789, "0.000123457"}, // 6 significant digits, the 7th (7) rounds up
            {123456, "123456"},              // X = 5: fixed, no decimals
            {1234567, "1.23457e+06"},        // X = 6: scientific
            {999999.7, "1e+06"},             // rounds up to 1000000: X becomes 6
            {99999.96, "100000"},            // rounds up to 100000: X becomes 5, still fixed
            {5921399.236, "5.9214e+06"},     // 5.92140: the trailing zero goes
            {1.0456692194784356, "1.04567"},
            {-2.5, "-2.5"},
            {-0.000012345, "-1.2345e-05"},
            {3.0e-20, "3e-20"},
            {7.25e19, "7.25e+19"},
            {1e100, "1e+100"},
            {0.1, "0.1"}, // the double just above 0.1 still rounds to 0.100000
            {2.0 / 3.0, "0.666667"},
        };
        for (const Case& c : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(Fast(c.x), std::string(c.expect), "x = " << c.x);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Over millions of numbers of every kind the programs write and beyond (random bit patterns,
 * random magnitudes from 1e-22 to 1e22, microseconds from whole picoseconds as the training
 * monitor computes them, ratios of times, numbers at and next to every rounding boundary of the
 * sixth digit and of the notation switch, exact halves, the special values), WriteGeneral6
 * writes what std::to_chars writes, and, for finite numbers, what printf writes.
 */
class GeneralFormatOracleTestCase : public TestCase
{
  public:
    GeneralFormatOracleTestCase()
        : TestCase("Same bytes as std::to_chars and printf's %g over millions of numbers")
    {
    }

  private:
    /**
     * Compare one number with both oracles, counting and reporting the first differences.
     * @param x the number.
     */
    void Check(double x)
    {
        ++m_checked;
        std::string fast = Fast(x);
        std::string expect = ByToChars(x);
        bool bad = fast != expect;
        if (std::isfinite(x) && ByPrintf(x) != expect)
        {
            bad = true;
        }
        if (bad)
        {
            ++m_wrong;
            if (m_wrong <= 5)
            {
                char hex[64];
                std::snprintf(hex, sizeof(hex), "%a", x);
                NS_TEST_EXPECT_MSG_EQ(fast,
                                      expect,
                                      "x = " << hex << " (printf: " << ByPrintf(x) << ")");
            }
        }
    }

    /**
     * Check a number and its two neighbours among the doubles.
     * @param x the number.
     */
    void CheckAround(double x)
    {
        Check(x);
        Check(std::nextafter(x, 0.0));
        Check(std::nextafter(x, std::numeric_limits<double>::infinity()));
    }

    void DoRun() override
    {
        std::mt19937_64 rng(20261203);
        // Random bit patterns: every exponent, so the fallback is exercised as well.
        for (int i = 0; i < 200000; ++i)
        {
            uint64_t bits = rng();
            double x;
            std::memcpy(&x, &bits, sizeof(x));
            if (!std::isnan(x))
            {
                Check(x);
            }
        }
        // Random magnitudes, 1e-22 to 1e22, both signs.
        std::uniform_real_distribution<double> unit(1.0, 10.0);
        std::uniform_int_distribution<int> exponent(-22, 22);
        for (int i = 0; i < 600000; ++i)
        {
            double x = unit(rng) * std::pow(10.0, exponent(rng));
            Check((i & 1) != 0 ? -x : x);
        }
        // Microseconds as the training monitor writes them: picoseconds / 1e6, up to 10^4 s;
        // and ratios of two such times (its slowdowns).
        std::uniform_int_distribution<int64_t> ps(0, 10000000000000000LL);
        std::uniform_int_distribution<int> digits(1, 16);
        for (int i = 0; i < 600000; ++i)
        {
            int64_t t = ps(rng) % static_cast<int64_t>(std::pow(10.0, digits(rng)));
            Check(static_cast<double>(t) / 1e6);
            int64_t u = 1 + ps(rng) % 1000000000LL;
            Check(static_cast<double>(t % 1000000000LL + 1) / 1e12 /
                  (static_cast<double>(u) / 1e12));
        }
        // Every rounding boundary of the sixth digit near the ends of the significand range
        // (n + 0.5 for n = 99999..100001 and 999998..999999) and at the notation switch, at
        // every decimal exponent, with the doubles on either side; and exact halves.
        for (int e = -21; e <= 21; ++e)
        {
            for (double n : {99999.0, 100000.0, 100001.0, 123456.0, 999998.0, 999999.0})
            {
                CheckAround((n + 0.5) * std::pow(10.0, e - 5));
                CheckAround(n * std::pow(10.0, e - 5));
            }
            CheckAround(std::pow(10.0, e));
        }
        for (double x : {0.5, 2.5, 100000.5, 999999.5, 1234565.0, 0.1234565, 12345650.0})
        {
            CheckAround(x);
        }
        // Special values and the limits of the fast path.
        for (double x : {0.0,
                         -0.0,
                         std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN(),
                         std::numeric_limits<double>::denorm_min(),
                         std::numeric_limits<double>::min(),
                         std::numeric_limits<double>::max(),
                         1e-20,
                         1e20,
                         -1e-20,
                         -1e20})
        {
            Check(x);
            if (std::isfinite(x) && x != 0)
            {
                CheckAround(x);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(m_wrong, 0, "numbers written differently, of " << m_checked);
        NS_TEST_EXPECT_MSG_GT(m_checked, 2000000, "numbers checked");
    }

    uint64_t m_checked{0}; //!< numbers checked
    uint64_t m_wrong{0};   //!< numbers written differently
};

/**
 * @ingroup llm-fabric-tests
 * The WriteGeneral6 test suite.
 */
class GeneralFormatTestSuite : public TestSuite
{
  public:
    GeneralFormatTestSuite()
        : TestSuite("llm-fabric-general-format", Type::UNIT)
    {
        AddTestCase(new GeneralFormatHandTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new GeneralFormatOracleTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The static instance that registers the suite.
static GeneralFormatTestSuite g_generalFormatTestSuite;

} // namespace tests
} // namespace llmfabric
