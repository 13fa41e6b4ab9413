package main

// everyRelease is the note of a key every CCM release reads.
const everyRelease = "every release (v1.0.0+)"

// ccmReleases says which cloud-provider-azure releases read each annotation
// (the key without its prefix; the parameter for per-port keys). It was
// taken from CCM's 309 v1.x.y release tags at master 7b31c76: for each tag,
// `git grep -o -E '"service\.beta\.kubernetes\.io/[a-z0-9_-]+"|(PortParams|HealthProbeParams) += "[a-z_-]+"' TAG -- 'pkg/*.go' ':!*_test.go'`
// lists the keys it defines; a note gives the first minor release whose .0
// defines it and the earlier patch releases it was backported to. Three
// keys were checked by hand: load-balancer-source-ranges was read through
// k8s.io/cloud-provider's service helpers before CCM named it, v1.0
// defined azure-load-balancer-disable-tcp-reset only to warn it was
// ignored, and azure-shared-securityrule is gone from recent releases.
// TestAnnotationsHelpCCMNotes requires a note for every registry key.
func ccmReleases() map[string]string {
	pls := "v1.24.0+, backported to v1.0.19, v1.1.15, v1.23.12"
	perPort := "v1.26.0+, backported to v1.24.12, v1.25.6"
	probeTiming := "v1.24.0+, backported to v1.0.11, v1.1.7, v1.23.4"
	dualStack := "v1.27.0+, backported to v1.24.19, v1.25.13, v1.26.9"
	return map[string]string{
		"azure-load-balancer-internal":                       everyRelease,
		"azure-load-balancer-internal-subnet":                everyRelease,
		"azure-load-balancer-mode":                           everyRelease,
		"azure-dns-label-name":                               everyRelease,
		"azure-load-balancer-resource-group":                 everyRelease,
		"azure-pip-ip-tags":                                  everyRelease,
		"azure-allowed-service-tags":                         everyRelease,
		"azure-allowed-ip-ranges":                            "v1.29.0+, backported to v1.25.24, v1.26.19, v1.27.13, v1.28.5",
		"azure-deny-all-except-load-balancer-source-ranges":  everyRelease,
		"azure-load-balancer-tcp-idle-timeout":               everyRelease,
		"azure-load-balancer-enable-high-availability-ports": everyRelease,
		"azure-load-balancer-health-probe-protocol":          everyRelease,
		"azure-load-balancer-health-probe-interval":          probeTiming,
		"azure-load-balancer-health-probe-num-of-probe":      probeTiming,
		"azure-load-balancer-health-probe-request-path":      everyRelease,
		"azure-pip-tags":                                     everyRelease,
		"azure-disable-load-balancer-floating-ip":            "v1.25.0+, backported to v1.0.22, v1.1.18, v1.23.15, v1.24.3",
		"azure-disable-load-balancer-nsg-rule":               "v1.35.6+ and v1.36.2+ only",
		"azure-additional-public-ips":                        "v1.1.0+, backported to v1.0.2",
		"azure-load-balancer-configurations":                 "v1.28.0+",
		"azure-load-balancer-disable-tcp-reset":              "v1.29.0+, backported to v1.25.19, v1.26.15, v1.27.9, v1.28.1 (v1.0 ignored it with a warning)",
		"azure-load-balancer-ipv4":                           "v1.26.0+, backported to v1.1.25, v1.23.22, v1.24.9, v1.25.3",
		"azure-load-balancer-ipv6":                           "v1.26.0+, backported to v1.1.25, v1.23.22, v1.24.9, v1.25.3",
		"azure-pip-name":                                     everyRelease,
		"azure-pip-name-ipv6":                                dualStack,
		"azure-pip-prefix-id":                                "v1.25.0+, backported to v1.0.21, v1.1.17, v1.23.14, v1.24.2",
		"azure-pip-prefix-id-ipv6":                           dualStack,
		"azure-pls-create":                                   pls,
		"azure-pls-resource-group":                           "v1.29.0+, backported to v1.25.19, v1.26.15, v1.27.9, v1.28.1",
		"azure-pls-name":                                     pls,
		"azure-pls-ip-configuration-subnet":                  pls,
		"azure-pls-ip-configuration-ip-address-count":        pls,
		"azure-pls-ip-configuration-ip-address":              pls,
		"azure-pls-fqdns":                                    pls,
		"azure-pls-proxy-protocol":                           pls,
		"azure-pls-visibility":                               pls,
		"azure-pls-auto-approval":                            pls,
		"no_lb_rule":                                         perPort,
		"no_probe_rule":                                      perPort,
		"health-probe_protocol":                              perPort,
		"health-probe_port":                                  perPort,
		"health-probe_interval":                              probeTiming,
		"health-probe_num-of-probe":                          probeTiming,
		"health-probe_request-path":                          probeTiming,
		"load-balancer-source-ranges":                        everyRelease,
		"azure-shared-securityrule":                          "not read by v1.36.0+, v1.35.4+, v1.34.9+, v1.33.12+ (removed in commit 1fb8674b9)",
		"azure-load-balancer-mixed-protocols":                "not read by CCM (absent from pkg/consts at 7b31c76); the in-tree provider of older Kubernetes releases read it",
	}
}
