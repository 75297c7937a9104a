import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PhoneInput, type PhoneInputState } from '@/components/phone-input';
import { changeLocale, loadTextParts } from '@/lib/i18n';

function setup(props: Partial<Parameters<typeof PhoneInput>[0]> = {}) {
  const onChange = vi.fn<(value: string | null, state: PhoneInputState) => void>();
  render(<PhoneInput id="tel" label="Téléphone" onChange={onChange} {...props} />);
  const user = userEvent.setup();
  const input = screen.getByLabelText('Téléphone');
  const country = screen.getByLabelText('Pays (indicatif)');
  const last = () => onChange.mock.calls.at(-1)![1];
  return { user, input, country, onChange, last, wrapper: screen.getByTestId('tel-state') };
}

describe('PhoneInput', () => {
  // Rendered outside the router: load the texts of form pages as their routes do.
  beforeAll(() => loadTextParts(['forms']));

  it('starts on DR Congo and outputs +243 with the digits', async () => {
    const { user, input, country, onChange, wrapper } = setup();
    expect(country).toHaveValue('CD');
    await user.type(input, '812345678');
    expect(onChange).toHaveBeenLastCalledWith('+243812345678', expect.objectContaining({ valid: true, error: null, focused: true }));
    expect(wrapper).toHaveAttribute('data-valid', 'true');
    expect(wrapper).toHaveAttribute('data-focused', 'true');
  });

  it('refuses non-digit keys and says why', async () => {
    const { user, input } = setup();
    await user.type(input, '81a2-');
    expect(input).toHaveValue('812');
    expect(screen.getByText('Le numéro ne doit contenir que des chiffres')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-describedby', 'tel-error');
  });

  it('lets editing keys through', async () => {
    const { user, input } = setup();
    await user.type(input, '8123{Backspace}{ArrowLeft}9');
    expect(input).toHaveValue('8192');
  });

  it('shows the required message after leaving the empty field', async () => {
    const { user, input, wrapper } = setup();
    await user.click(input);
    await user.tab();
    expect(screen.getByText('Le numéro de téléphone est requis')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(wrapper).toHaveAttribute('data-error', 'field.phone_required');
    expect(wrapper).toHaveAttribute('data-focused', 'false');
  });

  it('says a number is too short, then too long', async () => {
    const { user, input } = setup();
    await user.type(input, '8123');
    await user.tab();
    expect(screen.getByText('Le numéro doit contenir au moins 8 chiffres')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '1234567890123456');
    expect(screen.getByText('Le numéro ne peut pas dépasser 15 chiffres')).toBeInTheDocument();
  });

  it('names the length expected for the chosen country', async () => {
    const { user, input, country, last } = setup();
    await user.type(input, '81234567');
    await user.tab();
    expect(screen.getByText('Pour ce pays, le numéro doit contenir exactement 9 chiffres')).toBeInTheDocument();
    await user.selectOptions(country, 'BE');
    expect(last()).toMatchObject({ valid: true, value: '+3281234567' });
    await user.selectOptions(country, 'US');
    expect(screen.getByText('Pour ce pays, le numéro doit contenir exactement 10 chiffres')).toBeInTheDocument();
    await user.selectOptions(country, 'FR');
    expect(screen.getByText('Pour ce pays, le numéro doit contenir entre 9 et 10 chiffres')).toBeInTheDocument();
  });

  it('shows the messages in English too', async () => {
    await changeLocale('en');
    render(<PhoneInput id="tel" label="Phone" />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Phone'), '812');
    await user.tab();
    expect(screen.getByText('The number must contain at least 8 digits')).toBeInTheDocument();
  });

  it('accepts a Congolese number typed with its leading 0, as the import and the API do', async () => {
    const { user, input, last } = setup();
    await user.type(input, '0812345678');
    await user.tab();
    expect(last()).toMatchObject({ valid: true, value: '+243812345678' });
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('drops the national leading 0 of a French number', async () => {
    const { user, input, country, onChange } = setup();
    await user.selectOptions(country, 'FR');
    await user.type(input, '0612345678');
    expect(onChange).toHaveBeenLastCalledWith('+33612345678', expect.objectContaining({ valid: true }));
  });

  it('selects France when a +33 number is pasted, keeping only digits', async () => {
    const { user, input, country, onChange } = setup();
    await user.click(input);
    await user.paste('+33 6 12 34 56 78');
    expect(country).toHaveValue('FR');
    expect(input).toHaveValue('612345678');
    expect(onChange).toHaveBeenLastCalledWith('+33612345678', expect.objectContaining({ country: 'FR', valid: true }));
  });

  it('strips other characters from a pasted national number', async () => {
    const { user, input, country } = setup();
    await user.click(input);
    await user.paste('812-345 678');
    expect(input).toHaveValue('812345678');
    expect(country).toHaveValue('CD');
  });

  it('starts from an international number', () => {
    setup({ defaultValue: '+3225551234' });
    expect(screen.getByLabelText('Pays (indicatif)')).toHaveValue('BE');
    expect(screen.getByLabelText('Téléphone')).toHaveValue('25551234');
  });

  it('takes a dial code for another country (8 to 12 digits)', async () => {
    const { user, input, country, onChange } = setup();
    await user.selectOptions(country, 'OTHER');
    await user.type(screen.getByLabelText('Indicatif du pays'), '44');
    await user.type(input, '7911123456');
    expect(onChange).toHaveBeenLastCalledWith('+447911123456', expect.objectContaining({ valid: true }));
  });

  it('shows an error given from outside instead of its own', () => {
    setup({ error: 'Ce numéro est déjà utilisé', showError: true });
    expect(screen.getByText('Ce numéro est déjà utilisé')).toBeInTheDocument();
    expect(screen.queryByText('Le numéro de téléphone est requis')).toBeNull();
  });
});
