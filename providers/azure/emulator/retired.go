package emulator

import "strings"

// refuseRetiredSKU refuses to create a Basic SKU load balancer or public
// IP: Azure retired both on 2025-09-30. Resources that already exist (read
// from the state file or seeded) keep working and may be updated. The error
// code is azsvc's own: arm-rules has no verified one for this refusal.
func refuseRetiredSKU(c *writeCtx, sku, what string) *armError {
	if c.old != nil || !strings.EqualFold(sku, "Basic") {
		return nil
	}
	return badRequest("BasicSkuRetired",
		"Basic SKU %s were retired on 2025-09-30 and can no longer be created: %s. Use the Standard SKU.", what, c.id)
}
