// 'Empresa' (spec §2 Company screens): tabs Colaboradores and Departamentos, chosen by the inner hash
// (company-tab.ts). Gated by Colaboradores (premium advert otherwise); a person's RFC gets a notice.
import { useLocation, useNavigate } from '@tanstack/react-router';
import type { Account } from '../../domain/account';
import { useLayout } from '../layout/layout-context';
import { ForSelectedAccount } from '../layout/for-selected-account';
import { TabPanel, Tabs } from '../ui/tabs';
import { CollaboratorsTab } from './collaborators-tab';
import { COMPANY_TABS, tabFromHash, type CompanyTab } from './company-tab';
import { DepartmentsTab } from './departments-tab';
import { CompanyGate } from '../feature-gates/company-gate';
import '../ui/company-table.css';
import './company.css';

function CompanyTabs({ account }: { account: Account }) {
  const location = useLocation();
  const navigate = useNavigate();
  const tab = tabFromHash(location.hash);
  const choose = (id: CompanyTab) => void navigate({ to: '/company', hash: id, replace: true, hashScrollIntoView: false });
  const companyName = account.name || account.rfc;
  return (
    <>
      <Tabs label="Secciones de la empresa" items={COMPANY_TABS} value={tab} onChange={choose} idPrefix="company" />
      <TabPanel idPrefix="company" id={tab}>
        {tab === 'company-areas' ? (
          <DepartmentsTab key={account.diverza_client_id} clientId={account.diverza_client_id} />
        ) : (
          <CollaboratorsTab key={account.diverza_client_id} clientId={account.diverza_client_id} companyName={companyName} />
        )}
      </TabPanel>
    </>
  );
}

export function CompanyBody({ account }: { account: Account }) {
  return (
    <CompanyGate account={account} feature="Colaboradores">
      <CompanyTabs account={account} />
    </CompanyGate>
  );
}

export function CompanyPage() {
  const { selected } = useLayout();
  return (
    <main id="main" className="page company">
      <div className="page__title">
        <h1>Empresa</h1>
        {selected && <p className="muted company__who">{selected.name ? `${selected.name} · ${selected.rfc}` : selected.rfc}</p>}
      </div>
      <ForSelectedAccount>{(account) => <CompanyBody account={account} />}</ForSelectedAccount>
    </main>
  );
}
