/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "value-parser.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

namespace ns3
{

namespace
{

/// Rates whose number is this large or more are refused (DataRate's parser would overflow).
constexpr double MAX_RATE_NUMBER = 2e9;

} // namespace

bool
ValueParser::CheckerRange(Ptr<const AttributeChecker> checker,
                          std::string& minimum,
                          std::string& maximum)
{
    std::string info = checker->GetUnderlyingTypeInformation();
    std::string::size_type space = info.rfind(' ');
    std::string range = space == std::string::npos ? info : info.substr(space + 1);
    std::string::size_type colon = range.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == range.size())
    {
        return false;
    }
    minimum = range.substr(0, colon);
    maximum = range.substr(colon + 1);
    return true;
}

bool
ValueParser::ParseDecimal(const std::string& text, uint64_t& value, bool& overflow)
{
    value = 0;
    overflow = false;
    if (text.empty())
    {
        return false;
    }
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        uint64_t digit = static_cast<uint64_t>(c - '0');
        if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10)
        {
            overflow = true;
        }
        else
        {
            value = value * 10 + digit;
        }
    }
    return true;
}

bool
ValueParser::ParseNumber(const std::string& text, double& value)
{
    // Decimal only: strtod would also take hex floats (0x1p-3), "inf" and "nan".
    if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos)
    {
        return false;
    }
    const char* begin = text.c_str();
    char* end = nullptr;
    value = std::strtod(begin, &end);
    return end == begin + text.size() && std::isfinite(value);
}

bool
ValueParser::ParseRate(const std::string& text, DataRate& rate)
{
    std::string::size_type unit = text.find_first_not_of("0123456789.");
    double number = 0.0;
    if (unit == 0 || unit == std::string::npos || !ParseNumber(text.substr(0, unit), number) ||
        number >= MAX_RATE_NUMBER)
    {
        return false;
    }
    for (char c : text)
    {
        if (std::isspace(static_cast<unsigned char>(c)))
        {
            return false;
        }
    }
    std::istringstream in(text);
    DataRate value;
    in >> value;
    if (in.fail() || value.GetBitRate() == 0)
    {
        return false;
    }
    rate = value;
    return true;
}

bool
ValueParser::ParseDelay(const std::string& text, double& seconds, Time& delay)
{
    /// A unit of a delay.
    struct Unit
    {
        const char* suffix; //!< As written.
        Time::Unit unit;    //!< As Time knows it.
        double seconds;     //!< Its length in seconds.
    };

    // "s" last: it ends the others.
    static const Unit units[] = {{"ms", Time::MS, 1e-3},
                                 {"us", Time::US, 1e-6},
                                 {"ns", Time::NS, 1e-9},
                                 {"ps", Time::PS, 1e-12},
                                 {"s", Time::S, 1.0}};
    for (const Unit& u : units)
    {
        std::size_t length = std::strlen(u.suffix);
        if (text.size() <= length || text.compare(text.size() - length, length, u.suffix) != 0)
        {
            continue;
        }
        std::string number = text.substr(0, text.size() - length);
        double value = 0.0;
        if (number.find_first_not_of("0123456789.eE+-") != std::string::npos ||
            !ParseNumber(number, value))
        {
            return false;
        }
        seconds = value * u.seconds;
        if (std::fabs(seconds) <= MAX_DELAY_SECONDS)
        {
            delay = Time::FromDouble(value, u.unit);
        }
        return true;
    }
    return false;
}

std::string
ValueParser::ParseSize(const std::string& text, uint64_t maximum, uint64_t& bytes)
{
    /// A unit of a size.
    struct Unit
    {
        const char* suffix; //!< As written.
        uint64_t bytes;     //!< Its bytes.
    };

    static const Unit units[] = {{"B", 1},
                                 {"kB", 1000},
                                 {"KB", 1000},
                                 {"KiB", 1024},
                                 {"MB", 1000000},
                                 {"MiB", 1048576},
                                 {"GB", 1000000000},
                                 {"GiB", 1073741824}};
    std::string::size_type end = text.find_first_not_of("0123456789.");
    std::string number = text.substr(0, end);
    std::string suffix = end == std::string::npos ? "" : text.substr(end);
    const Unit* unit = nullptr;
    for (const Unit& u : units)
    {
        unit = suffix == u.suffix ? &u : unit;
    }
    std::string::size_type dot = number.find('.');
    std::string whole = number.substr(0, dot);
    std::string fraction = dot == std::string::npos ? "" : number.substr(dot + 1);
    uint64_t integer = 0;
    uint64_t decimals = 0;
    bool overflow = false;
    bool overflowFraction = false;
    if (unit == nullptr || !ParseDecimal(whole, integer, overflow) ||
        (dot != std::string::npos && !ParseDecimal(fraction, decimals, overflowFraction)))
    {
        return "not a size such as 300KB (units B, KB, KiB, MB, MiB, GB, GiB)";
    }
    // integer.fraction x unit, exactly: the fraction's digits times the unit must be whole.
    uint64_t scale = 1;
    for (std::size_t i = 0; i < fraction.size(); ++i)
    {
        if (scale > std::numeric_limits<uint64_t>::max() / 10)
        {
            return "not a whole number of bytes";
        }
        scale *= 10;
    }
    if (overflowFraction ||
        (decimals > 0 && unit->bytes > std::numeric_limits<uint64_t>::max() / decimals) ||
        unit->bytes * decimals % scale != 0)
    {
        return "not a whole number of bytes";
    }
    uint64_t fractionBytes = unit->bytes * decimals / scale;
    if (overflow || integer > (maximum - std::min(maximum, fractionBytes)) / unit->bytes ||
        integer * unit->bytes + fractionBytes > maximum)
    {
        return "above " + std::to_string(maximum) + " bytes";
    }
    bytes = integer * unit->bytes + fractionBytes;
    return "";
}

namespace
{

/**
 * @param text a text.
 * @param i the index of a byte of 0x80 or more.
 * @return the length of the valid UTF-8 sequence that starts there, or 0 if none does (a stray
 * continuation byte, an overlong form, a surrogate, a code point above U+10FFFF, a cut sequence).
 */
std::size_t
Utf8Length(const std::string& text, std::size_t i)
{
    auto byte = [&](std::size_t k) {
        return k < text.size() ? static_cast<unsigned char>(text[k]) : 0;
    };
    unsigned char c = byte(i);
    std::size_t length = c >= 0xC2 && c <= 0xDF   ? 2
                         : c >= 0xE0 && c <= 0xEF ? 3
                         : c >= 0xF0 && c <= 0xF4 ? 4
                                                  : 0;
    // The second byte's range narrows for E0 (no overlong), ED (no surrogate), F0 (no
    // overlong) and F4 (not above U+10FFFF).
    unsigned char low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned char high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    for (std::size_t k = 1; k < length; ++k)
    {
        unsigned char next = byte(i + k);
        if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF))
        {
            return 0;
        }
    }
    return length;
}

} // namespace

std::string
ValueParser::Escape(const std::string& text, std::size_t max, bool escapeBackslash)
{
    static const char* hex = "0123456789abcdef";
    const std::string tail = "... (" + std::to_string(text.size()) + " bytes)";
    const std::size_t room = max > tail.size() ? max - tail.size() : 0;
    std::string out;
    std::size_t keep = 0; // the longest whole-piece prefix of out that fits in room
    std::size_t i = 0;
    while (i < text.size())
    {
        auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = c < 0x80 ? 1 : Utf8Length(text, i);
        std::string piece;
        if (c == '\n' || c == '\t' || c == '\r')
        {
            piece.assign(1, '\\');
            piece.push_back(c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
        }
        else if (c == '\\' && escapeBackslash)
        {
            piece = "\\\\";
        }
        // Controls: C0, DEL, and C1 (U+0080..U+009F, written C2 80..C2 9F).
        else if (c < 0x20 || c == 0x7F || length == 0 ||
                 (c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0))
        {
            for (std::size_t k = 0; k < std::max<std::size_t>(length, 1); ++k)
            {
                auto b = static_cast<unsigned char>(text[i + k]);
                piece += std::string("\\x") + hex[b >> 4] + hex[b & 15];
            }
        }
        else
        {
            piece = text.substr(i, length);
        }
        out += piece;
        i += std::max<std::size_t>(length, 1);
        if (out.size() <= room)
        {
            keep = out.size(); // a cut here would leave room for the tail
        }
        else if (out.size() > max)
        {
            return out.substr(0, keep) + tail;
        }
    }
    return out;
}

std::string
ValueParser::Quote(const std::string& text, std::size_t max)
{
    return "'" + Escape(text, max) + "'";
}

} // namespace ns3
