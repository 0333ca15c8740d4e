// A virtual cluster (vCluster) per team on a shared host cluster, fenced by quota, LimitRange, network isolation and pod security, exposed through Gateway API.
package kubespaces
