/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATTRIBUTE_DEFAULTS_H
#define ATTRIBUTE_DEFAULTS_H

#include "ns3/attribute.h"

#include <map>
#include <set>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Attribute defaults from two sources, the command line and a scenario, with one rule:
 * a value the user gave wins and is never silently replaced.
 *
 * A program records what its command line gives (RecordCommandLine: every
 * `--ns3::Type::Attribute=value` and `--Type::Attribute=value`; Give for its own options that
 * stand for attributes, such as `--mtu`). A scenario then offers its values (Offer): each becomes
 * the attribute's default unless the user gave that attribute, or the program already changed
 * the default away from the attribute's built-in value (both are kept, and logged). Settings that
 * are not single attributes (a DCQCN parameter profile) are marked with MarkGiven under a name
 * of their own and asked with IsGiven.
 */
class AttributeDefaults
{
  public:
    /**
     * Record the attribute defaults a command line gives. Call it after CommandLine::Parse (which
     * has already set them).
     * @param argc the argument count.
     * @param argv the arguments.
     */
    void RecordCommandLine(int argc, char* argv[]);

    /**
     * Set an attribute default as the user's choice, and record it.
     * @param name the attribute's full name, e.g. "ns3::RdmaQueuePair::Mtu".
     * @param value its value, as text.
     * @return an empty string, or why the value or the name is refused.
     */
    std::string Give(const std::string& name, const std::string& value);

    /**
     * Read a value as text strictly for an attribute's type: the whole text (no trailing
     * characters, no missing unit, no exponent or fraction in an integer), within the checker's
     * range, never wrapping (a size above 32 bits for ns3::QueueSize). Integers, doubles,
     * booleans, rates, times, sizes and TypeIds are read here; other types by ns-3's reader.
     * @param checker the attribute's checker.
     * @param value the text.
     * @return "" or why it is refused (one line, without the value).
     */
    static std::string CheckText(Ptr<const AttributeChecker> checker, const std::string& value);

    /**
     * Record a setting of the user that is not one attribute.
     * @param name its name.
     */
    void MarkGiven(const std::string& name);

    /**
     * @param name an attribute's full name ("ns3::" prefix included) or a MarkGiven name.
     * @return whether the user gave it.
     */
    bool IsGiven(const std::string& name) const;

    /**
     * A scenario's value: set it as the attribute's default unless the user gave the attribute
     * or its default already differs from the built-in one.
     * @param name the attribute's full name.
     * @param value the value.
     * @return whether the default was set.
     */
    bool Offer(const std::string& name, const AttributeValue& value) const;

    /// Set again every default the user gave (after something rewrote several at once).
    void Reapply() const;

    /**
     * @param name an attribute's full name, e.g. "ns3::Dcqcn::BaseRtt".
     * @return its default value now (as Config::SetDefault, the command line or Offer left it),
     * as text; "" if no registered type has that attribute.
     */
    static std::string GetCurrent(const std::string& name);

  private:
    std::map<std::string, std::string> m_given; //!< Attribute full name -> value text.
    std::set<std::string> m_marked;             //!< Settings given that are not attributes.
};

} // namespace ns3

#endif /* ATTRIBUTE_DEFAULTS_H */
