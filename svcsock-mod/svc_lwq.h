/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svcsock: the lwq build's light-weight queue (svc_lwq.c).  struct
 * svc_lwq itself is in svcsock.h, inside struct svc_serv.
 */
#ifndef SVC_LWQ_H
#define SVC_LWQ_H

#include <linux/llist.h>

struct svc_lwq;

void svc_lwq_init(struct svc_lwq *q);
void svc_lwq_enqueue(struct llist_node *n, struct svc_lwq *q);
bool svc_lwq_empty(struct svc_lwq *q);
struct llist_node *svc_lwq_dequeue(struct svc_lwq *q);

#endif /* SVC_LWQ_H */
