package kube

import _ "embed"

// RBAC is examples/rbac/clusterrole.yaml: the ClusterRole, Role and
// bindings that grant exactly what azsvc does on a cluster. A test keeps the
// two files the same.
//
//go:embed rbac.yaml
var RBAC string
