/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function graph tracer's filter files and boot parameters
 * (graph_filter.c), as the core's set-up calls them.
 */
#ifndef _KERNEL_TRACE_FTRACE_TRACEFS_GRAPH_FILTER_H
#define _KERNEL_TRACE_FTRACE_TRACEFS_GRAPH_FILTER_H

#include <linux/init.h>

struct dentry;

#if defined(CONFIG_FUNCTION_GRAPH_TRACER) && defined(CONFIG_DYNAMIC_FTRACE)
void __init ftrace_graph_filter_tracefs(struct dentry *parent);
void __init ftrace_graph_filter_boot(void);
#else
static inline void ftrace_graph_filter_tracefs(struct dentry *parent) { }
static inline void ftrace_graph_filter_boot(void) { }
#endif

#endif /* _KERNEL_TRACE_FTRACE_TRACEFS_GRAPH_FILTER_H */
