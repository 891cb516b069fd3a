/**
 * A login code suggested from a tenant's name while the code has not been typed by hand:
 * "Bệnh viện Đà Nẵng" -> "benh-vien-da-nang". Only a suggestion: the contract schema decides.
 */
export function suggestTenantCode(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}
