/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MEMBER_HOOK_H
#define MEMBER_HOOK_H

#include <utility>

namespace ns3
{

template <typename Signature>
class MemberHook;

/**
 * @ingroup llm-fabric
 * @brief A call to one object through a plain function pointer, for the calls a port makes per
 * frame to its switch or RDMA endpoint.
 *
 * An ns-3 Callback of ns-3.37 calls through two std::function layers and copies its arguments
 * into each: 50 to 70 instructions a call, measured by callgrind on the port's frame receive
 * and dequeue calls. A MemberHook is an object pointer and a function pointer: the member
 * function is a template argument, so the call through the function pointer is the only
 * indirection. It keeps no reference to the object (as MakeCallback with a plain pointer):
 * whoever sets it keeps the object alive while the hook is set.
 *
 * @tparam R the return type.
 * @tparam Args the argument types.
 */
template <typename R, typename... Args>
class MemberHook<R(Args...)>
{
  public:
    /// A null hook (IsNull).
    MemberHook() = default;

    /**
     * @tparam Method the member function, R (T::*)(Args...).
     * @tparam T the object's class.
     * @param object the object the function is called on; not owned.
     * @return a hook calling object->Method(args...).
     */
    template <auto Method, typename T>
    static MemberHook Bind(T* object)
    {
        MemberHook hook;
        hook.m_object = object;
        hook.m_call = [](void* o, Args... args) -> R {
            return (static_cast<T*>(o)->*Method)(std::forward<Args>(args)...);
        };
        return hook;
    }

    /**
     * @param object what is handed to @p call; not owned.
     * @param call a function of the object and the arguments.
     * @return a hook calling call(object, args...).
     */
    static MemberHook FromFunction(void* object, R (*call)(void*, Args...))
    {
        MemberHook hook;
        hook.m_object = object;
        hook.m_call = call;
        return hook;
    }

    /// @return true if no function is set.
    bool IsNull() const
    {
        return m_call == nullptr;
    }

    /**
     * Call the function; the hook must not be null.
     * @param args the arguments.
     * @return what the function returns.
     */
    R operator()(Args... args) const
    {
        return m_call(m_object, std::forward<Args>(args)...);
    }

  private:
    void* m_object{nullptr};              //!< the object
    R (*m_call)(void*, Args...){nullptr}; //!< the function
};

} // namespace ns3

#endif /* MEMBER_HOOK_H */
