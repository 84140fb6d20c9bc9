/* SPDX-License-Identifier: GPL-2.0 */
/* The function profiler (profile.c), as the core sees it. */
#ifndef _KERNEL_TRACE_FTRACE_TRACEFS_PROFILE_H
#define _KERNEL_TRACE_FTRACE_TRACEFS_PROFILE_H

struct dentry;

#ifdef CONFIG_FUNCTION_PROFILER
void __init ftrace_profile_tracefs(struct dentry *d_tracer);
#else
static inline void ftrace_profile_tracefs(struct dentry *d_tracer) { }
#endif

#endif /* _KERNEL_TRACE_FTRACE_TRACEFS_PROFILE_H */
