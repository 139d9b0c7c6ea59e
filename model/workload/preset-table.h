/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PRESET_TABLE_H
#define PRESET_TABLE_H

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Look-ups in a table of named presets (an array of structs with a @c name member), as
 * GpuSpec and TransformerSpec keep them: their names, and one by name.
 */
class PresetTable
{
  public:
    /**
     * @param table the presets.
     * @return their names, in table order.
     */
    template <class Preset, std::size_t N>
    static std::vector<std::string> GetNames(const Preset (&table)[N])
    {
        std::vector<std::string> names;
        for (const Preset& preset : table)
        {
            names.emplace_back(preset.name);
        }
        return names;
    }

    /**
     * @param table the presets.
     * @param name a preset name.
     * @param[out] problem "unknown preset 'NAME' (known: a, b, ...)" when there is none.
     * @return the preset of that name, or nullptr.
     */
    template <class Preset, std::size_t N>
    static const Preset* Find(const Preset (&table)[N],
                              const std::string& name,
                              std::string& problem)
    {
        for (const Preset& preset : table)
        {
            if (name == preset.name)
            {
                return &preset;
            }
        }
        std::ostringstream message;
        message << "unknown preset '" << name << "' (known: ";
        const char* separator = "";
        for (const Preset& preset : table)
        {
            message << separator << preset.name;
            separator = ", ";
        }
        message << ")";
        problem = message.str();
        return nullptr;
    }
};

} // namespace ns3

#endif /* PRESET_TABLE_H */
