/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VALUE_PARSER_H
#define VALUE_PARSER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Strict parsers of the values users write in scenarios and on command lines: the whole
 * text must be the value (no trailing characters, no missing unit), and ranges are checked by
 * the callers with what these return.
 */
class ValueParser
{
  public:
    /// The longest delay ParseDelay gives a Time for, in seconds.
    static constexpr double MAX_DELAY_SECONDS = 1.0;

    /**
     * Read the range of a numeric checker from its type information ("uint32_t 1:1024").
     * @param checker the checker.
     * @param[out] minimum the lower bound, as printed.
     * @param[out] maximum the upper bound, as printed.
     * @return true if the information had that form.
     */
    static bool CheckerRange(Ptr<const AttributeChecker> checker,
                             std::string& minimum,
                             std::string& maximum);

    /**
     * @param text a decimal integer without sign.
     * @param[out] value its value.
     * @param[out] overflow set if it does not fit in 64 bits.
     * @return true if @p text is made of decimal digits only.
     */
    static bool ParseDecimal(const std::string& text, uint64_t& value, bool& overflow);

    /**
     * @param text a decimal number, as YAML writes floats (1.5, 989.4e12): no hex float, no inf
     * or nan, no space.
     * @param[out] value its value.
     * @return true if all of @p text is a finite number.
     */
    static bool ParseNumber(const std::string& text, double& value);

    /**
     * @param text a rate as DataRate writes it: a number and a unit without space (400Gbps,
     * 12.5GB/s); numbers of 2e9 and more are refused (DataRate's parser would overflow).
     * @param[out] rate its value.
     * @return true if @p text is such a rate and is positive.
     */
    static bool ParseRate(const std::string& text, DataRate& rate);

    /**
     * @param text a delay: a number and a unit (s, ms, us, ns, ps) without space (1us, 0.5us).
     * @param[out] seconds its value in seconds.
     * @param[out] delay its value (set only if it is at most 1 s long).
     * @return true if @p text has that form (whatever the sign of the number).
     */
    static bool ParseDelay(const std::string& text, double& seconds, Time& delay);

    /**
     * Read a size in bytes: a number and a unit without space, the units of ns3::QueueSize
     * (B, kB or KB, KiB, MB, MiB) and GB, GiB. The number may have a fraction if the size is a
     * whole number of bytes (1.5KB); no sign, exponent or trailing character.
     * @param text the size.
     * @param maximum the largest size accepted.
     * @param[out] bytes its value.
     * @return "" or why it is refused (not a size, not whole bytes, above maximum).
     */
    static std::string ParseSize(const std::string& text, uint64_t maximum, uint64_t& bytes);

    /**
     * A text as a message may show it: on one line, printable, and at most @p max bytes long.
     * Control bytes (NUL, ESC, line breaks, DEL, C1 controls) and bytes that are not valid UTF-8
     * are written as escapes (\n, \t, \r, \xNN); a backslash becomes two when
     * @p escapeBackslash. A longer text is cut at a character boundary and ends with
     * "... (N bytes)", N its length.
     * @param text the text.
     * @param max the longest result, in bytes (at least 32).
     * @param escapeBackslash whether a backslash is escaped (false for a message whose values
     * are already escaped).
     * @return the text as shown.
     */
    static std::string Escape(const std::string& text,
                              std::size_t max,
                              bool escapeBackslash = true);

    /**
     * @param text a value.
     * @param max the longest escaped form (see Escape).
     * @return 'text', escaped and cut.
     */
    static std::string Quote(const std::string& text, std::size_t max);
};

} // namespace ns3

#endif /* VALUE_PARSER_H */
