// A password input with a show/hide toggle button (aria-pressed says whether it is shown).
import { useState } from 'react';
import { TextField, type TextFieldProps } from './fields';
import { Icon } from './icon';

export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      trailing={
        <button
          type="button"
          className="pw-toggle"
          aria-label="Mostrar contraseña"
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          <Icon name={visible ? 'eyeOff' : 'eye'} />
        </button>
      }
    />
  );
}
