/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario.h"

#include "gpu-cluster-topology.h"
#include "network-config.h"
#include "scenario-keys.h"
#include "value-parser.h"

#include "ns3/boolean.h"
#include "ns3/collective-strategy.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/egress-stage.h"
#include "ns3/enum.h"
#include "ns3/gpu-spec.h"
#include "ns3/load-balancer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/parallel-layout.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/string.h"
#include "ns3/traffic-report.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <utility>
#include <vector>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Scenario");

using namespace scenariokeys;

namespace
{

/// The sections a scenario may have, in the order they are read.
const char* const SECTIONS[] =
    {"model", "training", "layout", "cluster", "collectives", "topology", "network", "faults"};

/// The group size of that example (2 for send-recv).
constexpr uint32_t EXAMPLE_RANKS = 4;
/// The ranks per server of that example.
constexpr uint32_t EXAMPLE_LOCAL_SIZE = 2;

/// The longest a value is shown in a message, in bytes of its escaped form.
constexpr std::size_t MAX_VALUE_SHOWN = 80;
/// The longest a file name is shown in a message, in bytes of its escaped form.
constexpr std::size_t MAX_NAME_SHOWN = 200;
/// The longest message LoadFromString returns, in bytes.
constexpr std::size_t MAX_MESSAGE = 400;

/**
 * @param node a YAML node.
 * @return true if it is a plain scalar (not quoted, not tagged): the only form of a number or a
 * boolean in a scenario.
 */
bool
IsPlain(const YAML::Node& node)
{
    return node.IsScalar() && node.Tag() == "?";
}

/// The entries of a YAML mapping, in document order.
using EntryList = std::vector<std::pair<std::string, YAML::Node>>;

/**
 * @param node a YAML node.
 * @return how it reads in a message: 'text' for a scalar, else "a mapping", "a sequence" or
 * "nothing".
 */
std::string
Describe(const YAML::Node& node)
{
    if (node.IsScalar())
    {
        // A quoted or tagged scalar is a string whatever it reads like ('8', "true", !!str 8).
        std::string text = ValueParser::Quote(node.Scalar(), MAX_VALUE_SHOWN);
        return node.Tag() == "?" ? text : "the string " + text;
    }
    if (node.IsMap())
    {
        return "a mapping";
    }
    if (node.IsSequence())
    {
        return "a sequence";
    }
    return "nothing";
}

/**
 * Reads one scenario into a Scenario's objects and reports the first problem.
 */
class Loader
{
  public:
    /**
     * @param name the file name of the messages.
     * @param model the model to set.
     * @param training the training settings to set.
     * @param layout the layout to set.
     * @param gpu the GPU to set.
     * @param topology the network topology to set.
     * @param network the transport and switch settings to set.
     */
    Loader(const std::string& name,
           Ptr<TransformerSpec> model,
           Ptr<TrainingConfig> training,
           Ptr<ParallelLayout> layout,
           Ptr<GpuSpec> gpu,
           Ptr<GpuClusterTopology> topology,
           Ptr<NetworkConfig> network)
        : m_name(name),
          m_model(model),
          m_training(training),
          m_layout(layout),
          m_gpu(gpu),
          m_topology(topology),
          m_network(network),
          m_gpus(0)
    {
    }

    /**
     * Read a parsed document.
     * @param root the document's root.
     * @param[out] algorithms receives the algorithm choices.
     * @return an empty string, or the message.
     */
    std::string Read(const YAML::Node& root, CollectiveChoices& algorithms);

    /** @return the GPU count read. */
    uint32_t GetGpus() const
    {
        return m_gpus;
    }

  private:
    /**
     * @param key the dotted path.
     * @param reason what is wrong.
     * @return "NAME: KEY: reason".
     */
    std::string Fail(const std::string& key, const std::string& reason) const
    {
        // A key may come from the file (an unknown one): shown escaped and cut, as values are.
        return m_name + ": " + ValueParser::Escape(key, MAX_VALUE_SHOWN) + ": " + reason;
    }

    /**
     * Check that a section is a mapping of known, distinct keys.
     * @param section the section's node.
     * @param name the section's name.
     * @param known the known keys, in the order they are listed.
     * @param[out] entries the entries, in document order.
     * @return an empty string, or the message.
     */
    std::string ReadEntries(const YAML::Node& section,
                            const std::string& name,
                            const std::vector<std::string>& known,
                            EntryList& entries) const;

    /**
     * ReadEntries() for a section of KeySpecs.
     * @param section the section's node.
     * @param name the section's name.
     * @param keys the section's keys.
     * @param[out] entries the entries, in document order.
     * @return an empty string, or the message.
     */
    std::string ReadEntries(const YAML::Node& section,
                            const std::string& name,
                            const std::vector<KeySpec>& keys,
                            EntryList& entries) const;

    /**
     * @param target a Target other than NONE.
     * @return its object.
     */
    Ptr<Object> ObjectOf(Target target) const;

    /**
     * Parse an unsigned integer within the range of a checker.
     * @param path the dotted path.
     * @param node the value.
     * @param positive require at least 1.
     * @param checker the attribute's checker, or nullptr for the range [1, 2^32 - 1].
     * @param[out] value the integer.
     * @return an empty string, or the message.
     */
    std::string ParseUnsigned(const std::string& path,
                              const YAML::Node& node,
                              bool positive,
                              Ptr<const AttributeChecker> checker,
                              uint64_t& value) const;

    /**
     * @param path the dotted path.
     * @param node the value.
     * @return the scalar text, or an empty string with @p error set.
     * @param[out] error the message if the value is not a non-empty scalar.
     */
    std::string ParseName(const std::string& path,
                          const YAML::Node& node,
                          std::string& error) const;

    /**
     * Set the attribute of a key.
     * @param path the dotted path.
     * @param spec the key.
     * @param node the value.
     * @return an empty string, or the message.
     */
    std::string Set(const std::string& path, const KeySpec& spec, const YAML::Node& node) const;

    /**
     * Set the attribute of every entry of a section whose key has one (Target::NONE keys are the
     * section's own to read).
     * @param section the section's name, the first part of each path.
     * @param entries the section's entries.
     * @param keys its keys.
     * @param markGiven also mark each attribute set as given by the scenario (NetworkConfig).
     * @return an empty string, or the first message.
     */
    std::string SetAll(const std::string& section,
                       const EntryList& entries,
                       const std::vector<KeySpec>& keys,
                       bool markGiven = false) const;

    /**
     * @param section the model section.
     * @return an empty string, or the message.
     */
    std::string ReadModel(const YAML::Node& section);
    /**
     * @param section the training section.
     * @return an empty string, or the message.
     */
    std::string ReadTraining(const YAML::Node& section);
    /**
     * @param section the layout section.
     * @return an empty string, or the message.
     */
    std::string ReadLayout(const YAML::Node& section);
    /**
     * @param section the cluster section.
     * @return an empty string, or the message.
     */
    std::string ReadCluster(const YAML::Node& section);
    /**
     * @param section the collectives section.
     * @param[out] algorithms receives the choices.
     * @return an empty string, or the message.
     */
    std::string ReadCollectives(const YAML::Node& section, CollectiveChoices& algorithms);
    /**
     * @param section the topology section.
     * @return an empty string, or the message.
     */
    std::string ReadTopology(const YAML::Node& section);
    /**
     * @param section the network section.
     * @return an empty string, or the message.
     */
    std::string ReadNetwork(const YAML::Node& section);
    /**
     * @param path the key's dotted path.
     * @param node topology.egress_stages: a list of EgressStage names.
     * @return an empty string, or the message.
     */
    std::string ReadEgressStages(const std::string& path, const YAML::Node& node);

    std::string m_name;                 //!< File name of the messages.
    Ptr<TransformerSpec> m_model;       //!< The model.
    Ptr<TrainingConfig> m_training;     //!< Training settings.
    Ptr<ParallelLayout> m_layout;       //!< Parallel layout.
    Ptr<GpuSpec> m_gpu;                 //!< The GPU.
    Ptr<GpuClusterTopology> m_topology; //!< The network topology.
    Ptr<NetworkConfig> m_network;       //!< Transport and switch settings.
    uint32_t m_gpus;                    //!< GPUs of the job.
};

/**
 * @param keys KeySpecs.
 * @return their YAML keys, in order.
 */
std::vector<std::string>
KeyNames(const std::vector<KeySpec>& keys)
{
    std::vector<std::string> names;
    for (const KeySpec& spec : keys)
    {
        names.emplace_back(spec.key);
    }
    return names;
}

/**
 * @param names names.
 * @return the names separated by ", ".
 */
std::string
Join(const std::vector<std::string>& names)
{
    std::string joined;
    for (const std::string& name : names)
    {
        joined += (joined.empty() ? "" : ", ") + name;
    }
    return joined;
}

/**
 * @param entries the entries of a section.
 * @param key a key.
 * @return the entry of that key, or nullptr.
 */
const YAML::Node*
Find(const EntryList& entries, const std::string& key)
{
    for (const auto& entry : entries)
    {
        if (entry.first == key)
        {
            return &entry.second;
        }
    }
    return nullptr;
}

std::string
Loader::ReadEntries(const YAML::Node& section,
                    const std::string& name,
                    const std::vector<std::string>& known,
                    EntryList& entries) const
{
    entries.clear();
    if (!section.IsMap())
    {
        return Fail(name, "expected a mapping, got " + Describe(section));
    }
    std::set<std::string> seen;
    for (const auto& item : section)
    {
        if (!item.first.IsScalar())
        {
            return Fail(name, "expected plain keys, got " + Describe(item.first));
        }
        std::string key = item.first.Scalar();
        std::string path = name + "." + key;
        bool isKnown = false;
        for (const std::string& candidate : known)
        {
            isKnown = isKnown || candidate == key;
        }
        if (!isKnown)
        {
            return Fail(path, "unknown key (known: " + Join(known) + ")");
        }
        if (!seen.insert(key).second)
        {
            return Fail(path, "duplicate key");
        }
        entries.emplace_back(key, item.second);
    }
    return "";
}

std::string
Loader::ReadEntries(const YAML::Node& section,
                    const std::string& name,
                    const std::vector<KeySpec>& keys,
                    EntryList& entries) const
{
    return ReadEntries(section, name, KeyNames(keys), entries);
}

Ptr<Object>
Loader::ObjectOf(Target target) const
{
    switch (target)
    {
    case Target::MODEL:
        return m_model;
    case Target::TRAINING:
        return m_training;
    case Target::LAYOUT:
        return m_layout;
    case Target::GPU:
        return m_gpu;
    case Target::TOPOLOGY:
        return m_topology;
    case Target::NETWORK:
        return m_network;
    case Target::NONE:
        break;
    }
    return nullptr;
}

std::string
Loader::ParseUnsigned(const std::string& path,
                      const YAML::Node& node,
                      bool positive,
                      Ptr<const AttributeChecker> checker,
                      uint64_t& value) const
{
    std::string minimum = "1";
    std::string maximum = std::to_string(std::numeric_limits<uint32_t>::max());
    bool haveRange = checker == nullptr || ValueParser::CheckerRange(checker, minimum, maximum);
    bool wantPositive = positive || minimum != "0";
    std::string expected =
        wantPositive ? "expected a positive integer" : "expected a non-negative integer";
    bool overflow = false;
    if (!IsPlain(node) || !ValueParser::ParseDecimal(node.Scalar(), value, overflow))
    {
        return Fail(path, expected + ", got " + Describe(node));
    }
    if (!overflow && value == 0 && wantPositive)
    {
        return Fail(path, expected + ", got " + Describe(node));
    }
    bool inRange = !overflow;
    if (inRange && checker != nullptr)
    {
        inRange = checker->Check(UintegerValue(value));
    }
    else if (inRange)
    {
        inRange = value <= std::numeric_limits<uint32_t>::max();
    }
    if (!inRange)
    {
        if (!haveRange)
        {
            return Fail(path, "the value " + Describe(node) + " is out of range");
        }
        return Fail(path,
                    "expected an integer from " + (positive ? std::string("1") : minimum) + " to " +
                        maximum + ", got " + Describe(node));
    }
    return "";
}

std::string
Loader::ParseName(const std::string& path, const YAML::Node& node, std::string& error) const
{
    error.clear();
    if (!node.IsScalar() || node.Scalar().empty())
    {
        error = Fail(path, "expected a name, got " + Describe(node));
        return "";
    }
    return node.Scalar();
}

std::string
Loader::SetAll(const std::string& section,
               const EntryList& entries,
               const std::vector<KeySpec>& keys,
               bool markGiven) const
{
    for (const auto& entry : entries)
    {
        for (const KeySpec& spec : keys)
        {
            if (entry.first == spec.key && spec.target != Target::NONE)
            {
                std::string error = Set(section + "." + entry.first, spec, entry.second);
                if (!error.empty())
                {
                    return error;
                }
                if (markGiven)
                {
                    m_network->MarkGiven(spec.attribute);
                }
            }
        }
    }
    return "";
}

std::string
Loader::Set(const std::string& path, const KeySpec& spec, const YAML::Node& node) const
{
    Ptr<Object> object = ObjectOf(spec.target);
    NS_ASSERT(object);
    TypeId::AttributeInformation info;
    bool found = object->GetInstanceTypeId().LookupAttributeByName(spec.attribute, &info);
    NS_ASSERT_MSG(found, "no attribute " << spec.attribute);
    (void)found;
    bool set = false;
    switch (spec.kind)
    {
    case ValueKind::UNSIGNED: {
        uint64_t value = 0;
        std::string error = ParseUnsigned(path, node, spec.positive, info.checker, value);
        if (!error.empty())
        {
            return error;
        }
        set = object->SetAttributeFailSafe(spec.attribute, UintegerValue(value));
        break;
    }
    case ValueKind::BOOLEAN: {
        if (!IsPlain(node) || (node.Scalar() != "true" && node.Scalar() != "false"))
        {
            return Fail(path, "expected true or false, got " + Describe(node));
        }
        set = object->SetAttributeFailSafe(spec.attribute, BooleanValue(node.Scalar() == "true"));
        break;
    }
    case ValueKind::NUMBER: {
        double value = 0.0;
        if (!IsPlain(node) || !ValueParser::ParseNumber(node.Scalar(), value))
        {
            return Fail(path, "expected a number, got " + Describe(node));
        }
        if (!info.checker->Check(DoubleValue(value)))
        {
            std::string minimum;
            std::string maximum;
            if (!ValueParser::CheckerRange(info.checker, minimum, maximum))
            {
                return Fail(path, "the value " + Describe(node) + " is out of range");
            }
            double top = std::strtod(maximum.c_str(), nullptr);
            if (top >= std::numeric_limits<double>::max() / 10)
            {
                return Fail(path,
                            "expected a number of at least " + minimum + ", got " + Describe(node));
            }
            return Fail(path,
                        "expected a number from " + minimum + " to " + maximum + ", got " +
                            Describe(node));
        }
        set = object->SetAttributeFailSafe(spec.attribute, DoubleValue(value));
        break;
    }
    case ValueKind::TEXT: {
        std::string error;
        std::string text = ParseName(path, node, error);
        if (!error.empty())
        {
            return error;
        }
        set = object->SetAttributeFailSafe(spec.attribute, StringValue(text));
        break;
    }
    case ValueKind::CHOICE: {
        std::vector<std::string> names;
        for (const Choice& choice : spec.choices)
        {
            names.emplace_back(choice.name);
            if (node.IsScalar() && node.Scalar() == choice.name)
            {
                set = object->SetAttributeFailSafe(spec.attribute, *spec.makeEnum(choice.value));
                if (!set)
                {
                    return Fail(path, "rejected by attribute " + std::string(spec.attribute));
                }
                return "";
            }
        }
        return Fail(path, "expected one of " + Join(names) + ", got " + Describe(node));
    }
    case ValueKind::RATE: {
        DataRate rate;
        if (!node.IsScalar() || !ValueParser::ParseRate(node.Scalar(), rate))
        {
            return Fail(path, "expected a positive rate such as 400Gbps, got " + Describe(node));
        }
        set = object->SetAttributeFailSafe(spec.attribute, DataRateValue(rate));
        break;
    }
    case ValueKind::SUBCLASS: {
        std::string error;
        std::string name = ParseName(path, node, error);
        if (!error.empty())
        {
            return error;
        }
        TypeId tid;
        std::string problem = TypeIdAlias::Resolve(spec.base(), name, tid, spec.what);
        if (!problem.empty())
        {
            return Fail(path, problem);
        }
        set = object->SetAttributeFailSafe(spec.attribute, TypeIdValue(tid));
        break;
    }
    case ValueKind::DELAY: {
        double seconds = 0.0;
        Time delay;
        if (!node.IsScalar() || !ValueParser::ParseDelay(node.Scalar(), seconds, delay) ||
            seconds < 0)
        {
            return Fail(path, "expected a non-negative delay such as 1us, got " + Describe(node));
        }
        if (seconds > ValueParser::MAX_DELAY_SECONDS)
        {
            return Fail(path, "expected a delay of at most 1s, got " + Describe(node));
        }
        set = object->SetAttributeFailSafe(spec.attribute, TimeValue(delay));
        break;
    }
    }
    if (!set)
    {
        return Fail(path,
                    "the value " + Describe(node) + " is rejected by attribute " + spec.attribute);
    }
    return "";
}

std::string
Loader::ReadModel(const YAML::Node& section)
{
    EntryList entries;
    std::string error = ReadEntries(section, "model", ModelKeys(), entries);
    if (!error.empty())
    {
        return error;
    }
    const YAML::Node* preset = Find(entries, "preset");
    if (preset != nullptr)
    {
        std::string name = ParseName("model.preset", *preset, error);
        if (!error.empty())
        {
            return error;
        }
        std::string problem = m_model->ApplyPreset(name);
        if (!problem.empty())
        {
            return Fail("model.preset", problem);
        }
    }
    else
    {
        for (const char* key : REQUIRED_MODEL_KEYS)
        {
            if (Find(entries, key) == nullptr)
            {
                return Fail(std::string("model.") + key,
                            "required key is missing (no preset is given)");
            }
        }
    }
    error = SetAll("model", entries, ModelKeys());
    if (!error.empty())
    {
        return error;
    }
    if (preset == nullptr && Find(entries, "kv_heads") == nullptr)
    {
        m_model->SetAttributeFailSafe("KvHeads", UintegerValue(m_model->GetHeads()));
    }
    return "";
}

std::string
Loader::ReadTraining(const YAML::Node& section)
{
    EntryList entries;
    std::string error = ReadEntries(section, "training", TrainingKeys(), entries);
    if (!error.empty())
    {
        return error;
    }
    bool sequences = Find(entries, "global_batch_sequences") != nullptr;
    bool tokens = Find(entries, "global_batch_tokens") != nullptr;
    if (sequences && tokens)
    {
        return Fail("training",
                    "global_batch_sequences and global_batch_tokens are both given: give "
                    "exactly one");
    }
    if (!sequences && !tokens)
    {
        return Fail("training",
                    "one of global_batch_sequences and global_batch_tokens is required");
    }
    error = SetAll("training", entries, TrainingKeys());
    if (!error.empty())
    {
        return error;
    }
    m_training->SetAttributeFailSafe(tokens ? "GlobalBatchSequences" : "GlobalBatchTokens",
                                     UintegerValue(0));
    return "";
}

std::string
Loader::ReadLayout(const YAML::Node& section)
{
    EntryList entries;
    std::string error = ReadEntries(section, "layout", LayoutKeys(), entries);
    if (!error.empty())
    {
        return error;
    }
    return SetAll("layout", entries, LayoutKeys());
}

std::string
Loader::ReadCluster(const YAML::Node& section)
{
    EntryList entries;
    std::string error = ReadEntries(section, "cluster", ClusterKeys(), entries);
    if (!error.empty())
    {
        return error;
    }
    const YAML::Node* gpus = Find(entries, "gpus");
    if (gpus == nullptr)
    {
        return Fail("cluster.gpus", "required key is missing");
    }
    uint64_t count = 0;
    error = ParseUnsigned("cluster.gpus", *gpus, true, nullptr, count);
    if (!error.empty())
    {
        return error;
    }
    m_gpus = static_cast<uint32_t>(count);
    const YAML::Node* gpu = Find(entries, "gpu");
    if (gpu != nullptr)
    {
        std::string name = ParseName("cluster.gpu", *gpu, error);
        if (!error.empty())
        {
            return error;
        }
        std::string problem = m_gpu->ApplyPreset(name);
        if (!problem.empty())
        {
            return Fail("cluster.gpu", problem);
        }
    }
    return SetAll("cluster", entries, ClusterKeys());
}

std::string
Loader::ReadCollectives(const YAML::Node& section, CollectiveChoices& algorithms)
{
    std::vector<std::string> known;
    for (const CollectiveKey& key : CollectiveKeys())
    {
        known.emplace_back(key.key);
    }
    EntryList entries;
    std::string error = ReadEntries(section, "collectives", known, entries);
    if (!error.empty())
    {
        return error;
    }
    for (const auto& entry : entries)
    {
        std::string path = "collectives." + entry.first;
        for (const CollectiveKey& key : CollectiveKeys())
        {
            if (entry.first != key.key)
            {
                continue;
            }
            std::string name = ParseName(path, entry.second, error);
            if (!error.empty())
            {
                return error;
            }
            TypeId algorithm;
            std::string problem = CollectiveChoices::Resolve(name, algorithm);
            if (!problem.empty())
            {
                return Fail(path, problem);
            }
            Ptr<CollectiveStrategy> strategy = CollectiveStrategy::Create(algorithm);
            std::vector<CollectiveKind> kinds = strategy->GetSupportedKinds();
            if (std::find(kinds.begin(), kinds.end(), key.kind) == kinds.end())
            {
                return Fail(path,
                            "algorithm " + ValueParser::Quote(name, MAX_VALUE_SHOWN) +
                                " does not apply to " + GetCollectiveKindName(key.kind) +
                                " (supported: " + Join(CollectiveChoices::GetAliasesFor(key.kind)) +
                                ")");
            }
            uint32_t ranks = key.kind == CollectiveKind::SEND_RECV ? 2 : EXAMPLE_RANKS;
            problem = strategy->CheckSupport(key.kind, ranks, EXAMPLE_LOCAL_SIZE);
            if (!problem.empty())
            {
                return Fail(path, problem);
            }
            algorithms.Set(key.kind, algorithm);
        }
    }
    return "";
}

std::string
Loader::ReadTopology(const YAML::Node& section)
{
    EntryList entries;
    std::string error = ReadEntries(section, "topology", TopologyKeys(), entries);
    if (!error.empty())
    {
        return error;
    }
    for (const auto& entry : entries)
    {
        std::string path = "topology." + entry.first;
        if (entry.first == "kind")
        {
            std::string name = ParseName(path, entry.second, error);
            if (!error.empty())
            {
                return error;
            }
            GpuClusterTopology::Kind kind = GpuClusterTopology::RAIL_OPTIMIZED;
            std::string problem = GpuClusterTopology::ParseKind(name, kind);
            if (!problem.empty())
            {
                return Fail(path, problem);
            }
            m_topology->SetAttributeFailSafe("Kind", EnumValue(kind));
            continue;
        }
        if (entry.first == "egress_stages")
        {
            error = ReadEgressStages(path, entry.second);
            if (!error.empty())
            {
                return error;
            }
            continue;
        }
        for (const KeySpec& spec : TopologyKeys())
        {
            if (entry.first == spec.key)
            {
                error = Set(path, spec, entry.second);
                if (!error.empty())
                {
                    return error;
                }
            }
        }
    }
    return "";
}

std::string
Loader::ReadEgressStages(const std::string& path, const YAML::Node& node)
{
    if (!node.IsSequence())
    {
        return Fail(path, "expected a list of egress stage names, got " + Describe(node));
    }
    std::vector<TypeId> stages;
    for (std::size_t i = 0; i < node.size(); ++i)
    {
        std::string item = path + "[" + std::to_string(i) + "]";
        std::string error;
        std::string name = ParseName(item, node[i], error);
        if (!error.empty())
        {
            return error;
        }
        TypeId tid;
        std::string problem =
            TypeIdAlias::Resolve(EgressStage::GetTypeId(), name, tid, "egress stage");
        if (!problem.empty())
        {
            return Fail(item, problem);
        }
        stages.push_back(tid);
    }
    m_network->SetEgressStages(stages);
    return "";
}

std::string
Loader::ReadNetwork(const YAML::Node& section)
{
    EntryList entries;
    std::string error = ReadEntries(section, "network", NetworkKeys(), entries);
    if (!error.empty())
    {
        return error;
    }
    return SetAll("network", entries, NetworkKeys(), true);
}

std::string
Loader::Read(const YAML::Node& root, CollectiveChoices& algorithms)
{
    if (!root.IsMap())
    {
        return m_name + ": expected a mapping of sections (" +
               Join(std::vector<std::string>(std::begin(SECTIONS), std::end(SECTIONS))) +
               "), got " + Describe(root);
    }
    std::map<std::string, YAML::Node> sections;
    for (const auto& item : root)
    {
        if (!item.first.IsScalar())
        {
            return m_name + ": expected plain section names, got " + Describe(item.first);
        }
        std::string name = item.first.Scalar();
        bool known = false;
        for (const char* section : SECTIONS)
        {
            known = known || name == section;
        }
        if (!known)
        {
            return Fail(
                name,
                "unknown section (known: " +
                    Join(std::vector<std::string>(std::begin(SECTIONS), std::end(SECTIONS))) + ")");
        }
        if (sections.count(name) != 0)
        {
            return Fail(name, "duplicate section");
        }
        sections[name] = item.second;
    }
    for (const char* required : {"model", "training", "cluster"})
    {
        if (sections.count(required) == 0)
        {
            return Fail(required, "required section is missing");
        }
    }
    std::string error = ReadModel(sections["model"]);
    if (error.empty())
    {
        error = ReadTraining(sections["training"]);
    }
    if (error.empty() && sections.count("layout") != 0)
    {
        error = ReadLayout(sections["layout"]);
    }
    if (error.empty())
    {
        error = ReadCluster(sections["cluster"]);
    }
    if (error.empty() && sections.count("collectives") != 0)
    {
        error = ReadCollectives(sections["collectives"], algorithms);
    }
    if (error.empty() && sections.count("topology") != 0)
    {
        error = ReadTopology(sections["topology"]);
    }
    if (error.empty() && sections.count("network") != 0)
    {
        error = ReadNetwork(sections["network"]);
    }
    if (!error.empty())
    {
        return error;
    }
    std::string problem = m_model->Check();
    if (!problem.empty())
    {
        return Fail("model", problem);
    }
    problem = m_layout->Check(*m_model, m_gpus);
    if (!problem.empty())
    {
        return Fail("layout", problem);
    }
    problem = m_training->Check(m_layout->GetDp(), *m_model);
    if (!problem.empty())
    {
        return Fail("training", problem);
    }
    problem = m_gpu->Check();
    if (!problem.empty())
    {
        return Fail("cluster", problem);
    }
    // A partly filled last server still has all its NICs.
    uint32_t gpusPerServer = m_layout->GetGpusPerServer();
    uint32_t servers = m_gpus / gpusPerServer + (m_gpus % gpusPerServer != 0 ? 1 : 0);
    if (sections.count("topology") == 0)
    {
        m_topology->SetAttributeFailSafe(
            "ServersPerLeaf",
            UintegerValue(GpuClusterTopology::GetDefaultServersPerLeaf(servers)));
    }
    problem = m_topology->SetCluster(servers, gpusPerServer);
    if (!problem.empty())
    {
        return Fail("topology", problem);
    }
    problem = m_network->Check();
    if (!problem.empty())
    {
        return Fail("network", problem);
    }
    return "";
}

/**
 * Records where each document of a YAML stream starts, and nothing else: Read counts a
 * scenario's documents with it, at most two, instead of YAML::LoadAll, which never returns on
 * a stream whose next token cannot start a node (a lone ","; yaml-cpp 0.7, the issue "Comma
 * causing infinite loop", jbeder/yaml-cpp#1040): the parser then reports an empty document
 * there again and again without reading on, and LoadAll collects them until memory runs out.
 */
class DocumentStarts : public YAML::EventHandler
{
  public:
    void OnDocumentStart(const YAML::Mark& mark) override
    {
        m_starts.push_back(mark);
    }

    void OnDocumentEnd() override
    {
    }

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
    }

    void OnScalar(const YAML::Mark& mark,
                  const std::string& tag,
                  YAML::anchor_t anchor,
                  const std::string& value) override
    {
    }

    void OnSequenceStart(const YAML::Mark& mark,
                         const std::string& tag,
                         YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override
    {
    }

    void OnSequenceEnd() override
    {
    }

    void OnMapStart(const YAML::Mark& mark,
                    const std::string& tag,
                    YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override
    {
    }

    void OnMapEnd() override
    {
    }

    /// @return where the documents seen so far start.
    const std::vector<YAML::Mark>& GetStarts() const
    {
        return m_starts;
    }

  private:
    std::vector<YAML::Mark> m_starts; //!< start of each document
};

} // namespace

Scenario::Scenario()
    : m_model(CreateObject<TransformerSpec>()),
      m_training(CreateObject<TrainingConfig>()),
      m_layout(CreateObject<ParallelLayout>()),
      m_gpu(CreateObject<GpuSpec>()),
      m_topology(CreateObject<GpuClusterTopology>()),
      m_network(CreateObject<NetworkConfig>()),
      m_gpus(1),
      m_hasJobs(false),
      m_clusterServers(0)
{
    NS_LOG_FUNCTION(this);
    m_topology->SetCluster(1, m_layout->GetGpusPerServer());
}

// Out of line: the header only declares the classes that the Ptr members point to.
Scenario::~Scenario() = default;

Scenario::Scenario(const Scenario& other) = default;

Scenario& Scenario::operator=(const Scenario& other) = default;

std::string
Scenario::GetCollectiveKey(CollectiveKind kind)
{
    for (const CollectiveKey& key : CollectiveKeys())
    {
        if (key.kind == kind)
        {
            return std::string("collectives.") + key.key;
        }
    }
    return "collectives";
}

TypeId
Scenario::GetDefaultAlgorithm(CollectiveKind kind)
{
    return CollectiveChoices::GetDefault(kind);
}

std::string
Scenario::Load(const std::string& path, Scenario& out)
{
    NS_LOG_FUNCTION(path);
    std::ifstream in(path);
    if (!in)
    {
        return ValueParser::Escape(path + ": cannot open", MAX_MESSAGE);
    }
    std::stringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        return ValueParser::Escape(path + ": cannot read", MAX_MESSAGE);
    }
    return LoadFromString(text.str(), path, out);
}

std::string
Scenario::LoadFromString(const std::string& yaml, const std::string& name, Scenario& out)
{
    NS_LOG_FUNCTION(name);
    // Whatever the file holds, the message is one printable line of at most MAX_MESSAGE bytes
    // (values in it are already escaped: their backslashes stay as they are).
    std::string problem = Read(yaml, name, out);
    return problem.empty() ? "" : ValueParser::Escape(problem, MAX_MESSAGE, false);
}

std::string
Scenario::Read(const std::string& yaml, const std::string& name, Scenario& out)
{
    const std::string shownName = ValueParser::Escape(name, MAX_NAME_SHOWN);
    try
    {
        // A scenario is one document: a second one (even an empty or broken one) is refused,
        // not ignored. The documents are counted up to two (DocumentStarts says why not with
        // YAML::LoadAll); a "second" one where the first started is the parser stuck on a token
        // that cannot start a value.
        std::istringstream stream(yaml);
        YAML::Parser parser(stream);
        DocumentStarts documents;
        while (documents.GetStarts().size() < 2 && parser.HandleNextDocument(documents))
        {
        }
        const auto& starts = documents.GetStarts();
        if (starts.size() > 1 && starts[1].pos == starts[0].pos)
        {
            return shownName + ": line " + std::to_string(starts[1].line + 1) + ", column " +
                   std::to_string(starts[1].column + 1) + ": not YAML (nothing can start here)";
        }
        if (starts.size() > 1)
        {
            return shownName + ": a second YAML document (a scenario is one document)";
        }
        YAML::Node root = starts.empty() ? YAML::Node() : YAML::Load(yaml);
        if (const YAML::Node& document = root; document.IsMap() && document["jobs"])
        {
            return ReadJobs(document, shownName, out); // scenario-jobs.cc
        }
        Scenario scenario;
        std::string error = ReadDocument(root, shownName, scenario);
        if (!error.empty())
        {
            return error;
        }
        if (root.IsMap() && root["faults"])
        {
            error = ReadScenarioFaults(root["faults"], scenario.m_gpus, scenario.m_faults);
            if (!error.empty())
            {
                return shownName + ": " + error;
            }
        }
        out = scenario;
        return "";
    }
    catch (const YAML::Exception& e)
    {
        std::ostringstream message;
        message << shownName << ": ";
        if (!e.mark.is_null())
        {
            message << "line " << e.mark.line + 1 << ", column " << e.mark.column + 1 << ": ";
        }
        message << ValueParser::Escape(e.msg, MAX_VALUE_SHOWN);
        return message.str();
    }
    catch (const std::exception& e)
    {
        return shownName + ": " + ValueParser::Escape(e.what(), MAX_VALUE_SHOWN);
    }
}

std::string
Scenario::ReadDocument(const YAML::Node& root, const std::string& name, Scenario& out)
{
    // A scenario of one job, and each job of a jobs list (ReadJob).
    Scenario scenario;
    Loader loader(name,
                  scenario.m_model,
                  scenario.m_training,
                  scenario.m_layout,
                  scenario.m_gpu,
                  scenario.m_topology,
                  scenario.m_network);
    std::string error = loader.Read(root, scenario.m_algorithms);
    if (!error.empty())
    {
        NS_LOG_INFO(error);
        return error;
    }
    scenario.m_gpus = loader.GetGpus();
    out = scenario;
    return "";
}

Ptr<TransformerSpec>
Scenario::GetModel() const
{
    return m_model;
}

Ptr<TrainingConfig>
Scenario::GetTraining() const
{
    return m_training;
}

Ptr<ParallelLayout>
Scenario::GetLayout() const
{
    return m_layout;
}

Ptr<GpuSpec>
Scenario::GetGpu() const
{
    return m_gpu;
}

uint32_t
Scenario::GetGpus() const
{
    return m_gpus;
}

const ScenarioFaults&
Scenario::GetFaults() const
{
    return m_faults;
}

Ptr<GpuClusterTopology>
Scenario::GetTopology() const
{
    return m_topology;
}

Ptr<NetworkConfig>
Scenario::GetNetwork() const
{
    return m_network;
}

TypeId
Scenario::GetAlgorithm(CollectiveKind kind) const
{
    return m_algorithms.For(kind);
}

const CollectiveChoices&
Scenario::GetAlgorithms() const
{
    return m_algorithms;
}

std::string
Scenario::BuildTrafficReport(TrafficReport& report) const
{
    return report.Build({m_model, m_training, m_layout, m_gpus, m_gpu, m_algorithms});
}

} // namespace ns3
