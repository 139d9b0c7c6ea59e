/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef USAGE_ERROR_H
#define USAGE_ERROR_H

#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief How the programs of this module stop on bad input: one line on standard error and exit
 * status 2, never a crash.
 *
 * Before exiting it destroys the simulation (Simulator::Destroy): leaving with nodes, devices
 * and open pcaps alive crashes in static destructors on some ns-3 builds.
 */
class UsageError
{
  public:
    UsageError() = delete;

    /**
     * Stop with "program: --key: reason".
     * @param program the program's name.
     * @param key the option, or the options, at fault.
     * @param reason why.
     */
    [[noreturn]] static void Exit(const std::string& program,
                                  const std::string& key,
                                  const std::string& reason);

    /**
     * Stop with a line of the program's own making (such as "FILE: KEY: reason").
     * @param message the line.
     */
    [[noreturn]] static void Exit(const std::string& message);
};

} // namespace ns3

#endif /* USAGE_ERROR_H */
