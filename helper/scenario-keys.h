/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_KEYS_H
#define SCENARIO_KEYS_H

#include "ns3/attribute.h"
#include "ns3/collective-kind.h"
#include "ns3/enum.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <vector>

/**
 * @file
 * @ingroup llm-fabric
 * The schema of a scenario as data: every key of every section, the object and attribute it
 * sets and the type of its value. Scenario's loader reads YAML against these tables, and
 * doc/scenario-schema.rst documents them.
 */

namespace ns3
{
namespace scenariokeys
{

/// The object a key sets an attribute of.
enum class Target
{
    NONE,     ///< Handled by the loader itself (preset, gpus, gpu).
    MODEL,    ///< The TransformerSpec.
    TRAINING, ///< The TrainingConfig.
    LAYOUT,   ///< The ParallelLayout.
    GPU,      ///< The GpuSpec.
    TOPOLOGY, ///< The GpuClusterTopology.
    NETWORK   ///< The NetworkConfig.
};

/// The type of a key's value.
enum class ValueKind
{
    UNSIGNED, ///< A decimal integer (UintegerValue).
    BOOLEAN,  ///< true or false (BooleanValue).
    NUMBER,   ///< A floating-point number (DoubleValue).
    TEXT,     ///< A string (StringValue, or a name the loader uses).
    CHOICE,   ///< One of a list of names (EnumValue).
    RATE,     ///< A positive data rate with its unit, such as 400Gbps (DataRateValue).
    DELAY,    ///< A delay of 0 to 1 s with its unit, such as 1us (TimeValue).
    SUBCLASS  ///< An extension-point class, by alias or TypeId name (TypeIdValue).
};

/// The base class of a SUBCLASS key.
using BaseOf = TypeId (*)();

/// A name of an enumerated value and the value.
struct Choice
{
    const char* name; //!< The name in YAML.
    int value;        //!< The enum value.
};

/// Make an attribute value from an enum value given as an int.
using EnumMaker = Ptr<AttributeValue> (*)(int);

/**
 * @tparam E the enum type of the attribute.
 * @param value the enum value.
 * @return an EnumValue holding it, typed as the attribute expects.
 */
template <typename E>
Ptr<AttributeValue>
MakeEnumValue(int value)
{
    return EnumValue(static_cast<E>(value)).Copy();
}

/// A key of a section.
struct KeySpec
{
    const char* key;             //!< The YAML key.
    Target target;               //!< The object it sets.
    const char* attribute;       //!< The attribute it sets ("" for Target::NONE).
    ValueKind kind;              //!< The type of its value.
    bool positive;               //!< Require at least 1 even if the attribute allows 0.
    std::vector<Choice> choices; //!< The names of a CHOICE.
    EnumMaker makeEnum;          //!< Makes the value of a CHOICE.
    BaseOf base{nullptr};        //!< The extension point of a SUBCLASS.
    const char* what{""};        //!< What a SUBCLASS names, for messages.
};

/// A collective's YAML key.
struct CollectiveKey
{
    const char* key;     //!< The YAML key.
    CollectiveKind kind; //!< The collective.
};

/**
 * @param kind the type of its value (OneOf and Subclass make CHOICE and SUBCLASS keys).
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @param positive for UNSIGNED: require at least 1 even if the attribute allows 0.
 * @return the key.
 */
KeySpec Key(ValueKind kind,
            const char* key,
            Target target,
            const char* attribute,
            bool positive = false);

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @param choices the names and values.
 * @param makeEnum makes the attribute value.
 * @return an enumerated key.
 */
KeySpec OneOf(const char* key,
              Target target,
              const char* attribute,
              std::vector<Choice> choices,
              EnumMaker makeEnum);

/**
 * @param key the YAML key.
 * @param target the object.
 * @param attribute the attribute.
 * @param base the extension point.
 * @param what what the key names, for messages ("congestion control").
 * @return a key naming a subclass of base (TypeIdAlias).
 */
KeySpec Subclass(const char* key,
                 Target target,
                 const char* attribute,
                 BaseOf base,
                 const char* what);

/// @return the keys of the model section.
const std::vector<KeySpec>& ModelKeys();

/// @return the keys of the training section.
const std::vector<KeySpec>& TrainingKeys();

/// @return the keys of the layout section.
const std::vector<KeySpec>& LayoutKeys();

/// @return the keys of the cluster section.
const std::vector<KeySpec>& ClusterKeys();

/// @return the keys of the topology section.
const std::vector<KeySpec>& TopologyKeys();

/// @return the keys of the network section.
const std::vector<KeySpec>& NetworkKeys();

/// The keys the model section must have when it names no preset.
extern const char* const REQUIRED_MODEL_KEYS[5];

/// @return the collectives' keys, in CollectiveKind order.
const std::vector<CollectiveKey>& CollectiveKeys();

} // namespace scenariokeys
} // namespace ns3

#endif /* SCENARIO_KEYS_H */
