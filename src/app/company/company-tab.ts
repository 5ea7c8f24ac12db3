// Which tab the Company screen shows (spec §2): '#company-contributors' or '#company-areas', default
// colaboradores. With hash history the route already lives in the URL's hash, so the tab is a second
// hash inside it — '#/company#company-areas' — which TanStack's hash history reads as location.hash.
export type CompanyTab = 'company-contributors' | 'company-areas';

export const COMPANY_TABS: readonly { id: CompanyTab; label: string }[] = [
  { id: 'company-contributors', label: 'Colaboradores' },
  { id: 'company-areas', label: 'Departamentos' },
];

/** The router's location.hash ('company-areas', '#company-areas' or '') → the tab. */
export function tabFromHash(hash: string): CompanyTab {
  return hash.replace(/^#/, '') === 'company-areas' ? 'company-areas' : 'company-contributors';
}
