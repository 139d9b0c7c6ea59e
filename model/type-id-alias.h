/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TYPE_ID_ALIAS_H
#define TYPE_ID_ALIAS_H

#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Short names of the classes behind the extension points, registered by each class in its
 * own file, and the one lookup that turns a name a user wrote into a TypeId.
 *
 * Every swappable algorithm of llm-fabric (a congestion control, a collective algorithm, a load
 * balancer, an egress stage) is one class chosen by TypeId. A scenario or a command line may name
 * it by its TypeId name (`ns3::Dcqcn`) or by a short alias that the class registers next to its
 * GetTypeId (`dcqcn`), with
 *
 * @code
 * NS_OBJECT_ENSURE_REGISTERED(Dcqcn);
 * static TypeIdAlias g_dcqcnAlias("dcqcn", "ns3::Dcqcn");
 * @endcode
 *
 * There is no central table: the registry is filled by these static objects as the library
 * loads, and Resolve only accepts a type that is a subclass of the extension point asked for, so
 * one alias may name different classes under different bases (`direct` is a collective
 * algorithm; it could also be a load balancer).
 */
class TypeIdAlias
{
  public:
    /**
     * Register an alias (at static initialization, from the class's own .cc file).
     * @param alias the short name, e.g. "dcqcn" (unique among the subclasses of any one base).
     * @param typeName the TypeId name it stands for, e.g. "ns3::Dcqcn".
     */
    TypeIdAlias(const std::string& alias, const std::string& typeName);

    /**
     * Turn a user's name into the TypeId of a subclass of a base class.
     * @param base the extension point, e.g. RdmaCongestionOps::GetTypeId().
     * @param name a TypeId name ("ns3::Dcqcn"), the same without "ns3::" ("Dcqcn") or a
     * registered alias ("dcqcn").
     * @param[out] tid the TypeId found (unchanged on error).
     * @param what what is named, for the message (default: the base's TypeId name).
     * @return an empty string, or one line saying why not, listing the known names, e.g.
     * "unknown congestion control 'x' (known: dcqcn, fixed, none, or the TypeId name of a
     * subclass of ns3::RdmaCongestionOps)"; the name is shown escaped and cut.
     */
    static std::string Resolve(TypeId base,
                               const std::string& name,
                               TypeId& tid,
                               const std::string& what = "");

    /**
     * @param base an extension point.
     * @return the aliases of its registered, constructible subclasses, sorted.
     */
    static std::vector<std::string> GetAliases(TypeId base);

    /**
     * @param base an extension point.
     * @return its aliases as one line, "a, b, c" (for messages and help texts).
     */
    static std::string ListAliases(TypeId base);

    /**
     * @param tid a TypeId.
     * @return its first registered alias, or its name without "ns3::" if it has none.
     */
    static std::string GetShortName(TypeId tid);
};

} // namespace ns3

#endif /* TYPE_ID_ALIAS_H */
