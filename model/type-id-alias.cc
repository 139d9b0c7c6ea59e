/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "type-id-alias.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

/**
 * @return the registry of (alias, TypeId name) pairs, in registration order; a function-local
 * static, so that registrations from other files' static objects find it constructed.
 */
std::vector<std::pair<std::string, std::string>>&
Registry()
{
    static std::vector<std::pair<std::string, std::string>> registry;
    return registry;
}

/**
 * @param name a TypeId name.
 * @param base an extension point.
 * @param[out] tid the TypeId of that name, if it is a constructible subclass of base.
 * @return whether it is.
 */
bool
LookupChild(const std::string& name, TypeId base, TypeId& tid)
{
    TypeId found;
    if (!TypeId::LookupByNameFailSafe(name, &found))
    {
        return false;
    }
    if (found == base || !found.IsChildOf(base) || !found.HasConstructor())
    {
        return false;
    }
    tid = found;
    return true;
}

/**
 * @param text what a user wrote.
 * @return it with bytes outside printable ASCII escaped as \\xNN, cut to 64 characters.
 */
std::string
Printable(const std::string& text)
{
    std::string out;
    for (char c : text)
    {
        auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7F && c != '\\')
        {
            out += c;
        }
        else
        {
            char escaped[5];
            std::snprintf(escaped, sizeof(escaped), "\\x%02X", byte);
            out += escaped;
        }
        if (out.size() >= 64)
        {
            return out + "...";
        }
    }
    return out;
}

} // namespace

TypeIdAlias::TypeIdAlias(const std::string& alias, const std::string& typeName)
{
    Registry().emplace_back(alias, typeName);
}

std::string
TypeIdAlias::Resolve(TypeId base, const std::string& name, TypeId& tid, const std::string& what)
{
    if (LookupChild(name, base, tid) || LookupChild("ns3::" + name, base, tid))
    {
        return "";
    }
    for (const auto& [alias, typeName] : Registry())
    {
        if (alias == name && LookupChild(typeName, base, tid))
        {
            return "";
        }
    }
    std::ostringstream error;
    error << "unknown " << (what.empty() ? base.GetName() : what) << " '" << Printable(name)
          << "' (known: " << ListAliases(base) << ", or the TypeId name of a subclass of "
          << base.GetName() << ")";
    return error.str();
}

std::vector<std::string>
TypeIdAlias::GetAliases(TypeId base)
{
    std::vector<std::string> aliases;
    TypeId tid;
    for (const auto& [alias, typeName] : Registry())
    {
        if (LookupChild(typeName, base, tid))
        {
            aliases.push_back(alias);
        }
    }
    std::sort(aliases.begin(), aliases.end());
    aliases.erase(std::unique(aliases.begin(), aliases.end()), aliases.end());
    return aliases;
}

std::string
TypeIdAlias::ListAliases(TypeId base)
{
    std::string list;
    for (const std::string& alias : GetAliases(base))
    {
        list += (list.empty() ? "" : ", ") + alias;
    }
    return list;
}

std::string
TypeIdAlias::GetShortName(TypeId tid)
{
    for (const auto& [alias, typeName] : Registry())
    {
        if (typeName == tid.GetName())
        {
            return alias;
        }
    }
    const std::string& name = tid.GetName();
    return name.rfind("ns3::", 0) == 0 ? name.substr(5) : name;
}

} // namespace ns3
