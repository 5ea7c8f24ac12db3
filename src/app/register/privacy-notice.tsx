// A short aviso de privacidad (LFPDPPP) shown from the e-mail step.
import { Button } from '../ui/button';
import { Modal } from '../ui/overlay';

export function PrivacyNotice({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Aviso de privacidad"
      footer={
        <Button variant="primary" onClick={onClose}>
          Entendido
        </Button>
      }
    >
      <div className="prose">
        <p>
          Cuentas Claras es responsable del tratamiento de tus datos personales conforme a la Ley Federal de Protección de Datos
          Personales en Posesión de los Particulares.
        </p>
        <h3>Qué datos usamos</h3>
        <p>Tu nombre de usuario, correo electrónico, RFC, nombre o razón social y las facturas y gastos que registres.</p>
        <h3>Para qué los usamos</h3>
        <p>
          Para crear y proteger tu cuenta, pedir y enviarte tus facturas CFDI, mostrarte tus gastos e ingresos, recuperar tu
          contraseña y darte soporte. No vendemos tus datos ni los usamos para publicidad de terceros.
        </p>
        <h3>Con quién los compartimos</h3>
        <p>
          Solo con los comercios y proveedores de certificación (PAC) que emiten las facturas que tú pides, y con autoridades
          cuando la ley lo exige.
        </p>
        <h3>Tus derechos ARCO</h3>
        <p>
          Puedes acceder, rectificar, cancelar u oponerte al uso de tus datos, o revocar tu consentimiento, escribiendo a
          privacidad@cuentasclaras.mx. Te respondemos en un máximo de 20 días hábiles.
        </p>
      </div>
    </Modal>
  );
}
