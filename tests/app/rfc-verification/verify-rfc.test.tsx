// The RFC status (account menu, Perfil) and the verify screen, rendered for verified and unverified accounts,
// and the screen's checks before sending.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { RfcStatus, RFC_STATUS_TXT } from '../../../src/app/ui/rfc-status';
import { VerifyRfc } from '../../../src/app/rfc-verification/verify-rfc-page';
import { checkCiec, checkEfirmaDraft, VERIFY_TXT } from '../../../src/app/rfc-verification/verify-model';
import { account } from '../../offline/fixtures';

const persona = { ...account(1, 'XIQB891116QE4', null), first_name: 'BERENICE', last_name: 'XIMO QUEZADA' };
const empresa = account(2, 'EKU9003173C9', 'ESCUELA KEMPER URGATE');

describe('RFC status', () => {
  it("says 'RFC verificado' for a proved account, with no action", () => {
    const html = renderToStaticMarkup(<RfcStatus account={{ rfc_verified: true }} />);
    expect(html).toContain(RFC_STATUS_TXT.verified);
    expect(html).not.toContain(RFC_STATUS_TXT.verify);
  });

  it("offers 'Verificar RFC' (a link to the verify screen) for an unproved one, and says why in Perfil", () => {
    const html = renderToStaticMarkup(<RfcStatus account={{ rfc_verified: false }} explain />);
    expect(html).toContain(RFC_STATUS_TXT.unverified);
    expect(html).toContain(`href="/#/verify-rfc"`);
    expect(html).toContain(`>${RFC_STATUS_TXT.verify}</a>`);
    expect(html).toContain(RFC_STATUS_TXT.why);
  });
});

describe('verify screen', () => {
  it('unverified persona física: the e.firma form (.cer, .key, password), the CIEC form and the way to Sincronización SAT', () => {
    const html = renderToStaticMarkup(<VerifyRfc account={persona} />);
    expect(html).toContain(VERIFY_TXT.efirmaTitle);
    expect(html).toContain('accept=".cer"');
    expect(html).toContain('accept=".key"');
    expect(html).toContain('Contraseña de tu e.firma');
    expect(html).toContain(VERIFY_TXT.ciecTitle);
    expect(html).toContain('href="/#/sync"');
  });

  it('a company is not sent to Sincronización SAT (personas físicas only)', () => {
    const html = renderToStaticMarkup(<VerifyRfc account={empresa} />);
    expect(html).toContain(VERIFY_TXT.efirmaSubmit);
    expect(html).not.toContain('href="/#/sync"');
  });

  it('verified: says so and how, without the forms', () => {
    const html = renderToStaticMarkup(<VerifyRfc account={{ ...persona, rfc_verified: true, rfc_verified_by: 'efirma' }} />);
    expect(html).toContain(VERIFY_TXT.verifiedTitle);
    expect(html).toContain(VERIFY_TXT.verifiedBy.efirma);
    expect(html).not.toContain('accept=".cer"');
  });

  it('checks the files and passwords before sending', () => {
    const file = (size: number) => new File([new Uint8Array(size)], 'x.cer');
    expect(checkEfirmaDraft({ cer: null, key: null, password: '' })).toEqual({ field: 'cer', message: MSG.efirmaMissing });
    expect(checkEfirmaDraft({ cer: file(70_000), key: null, password: '' })).toEqual({ field: 'cer', message: MSG.efirmaFileTooBig });
    expect(checkEfirmaDraft({ cer: file(900), key: null, password: '' })).toEqual({ field: 'key', message: MSG.efirmaMissing });
    expect(checkEfirmaDraft({ cer: file(900), key: file(1200), password: '' })).toEqual({ field: 'password', message: MSG.efirmaMissing });
    expect(checkEfirmaDraft({ cer: file(900), key: file(1200), password: 'x' })).toBeNull();
    expect(checkCiec('corta')).toBe(MSG.satPasswordLength);
    expect(checkCiec('suficiente')).toBeNull();
  });
});
